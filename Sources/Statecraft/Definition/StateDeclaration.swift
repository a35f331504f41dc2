/// A state, with the effects that run when it is entered or left.
public struct StateDeclaration: Sendable {
    public var name: Named
    public var entry: [Named]
    public var exit: [Named]
    /// A final state accepts no more inputs.
    public var isFinal: Bool
    /// What the state means, shown by diagrams; no part of what the machine does.
    public var description: String?

    public init(_ name: Named, entry: [Named] = [], exit: [Named] = [], isFinal: Bool = false, description: String? = nil) {
        self.name = name
        self.entry = entry
        self.exit = exit
        self.isFinal = isFinal
        self.description = description
    }
}
