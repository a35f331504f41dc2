/// A state, with the effects that run when it is entered or left.
public struct StateDeclaration: Sendable {
    /// The state's name.
    public var name: Named
    /// Effects run on entering the state, in order.
    public var entry: [Named]
    /// Effects run on leaving the state, in order.
    public var exit: [Named]
    /// A final state accepts no more inputs.
    public var isFinal: Bool
    /// What the state means, shown by diagrams; no part of what the machine does.
    public var description: String?

    /// A state named `name`, with its entry and exit effects, and what it means.
    public init(_ name: Named, entry: [Named] = [], exit: [Named] = [], isFinal: Bool = false, description: String? = nil) {
        self.name = name
        self.entry = entry
        self.exit = exit
        self.isFinal = isFinal
        self.description = description
    }
}
