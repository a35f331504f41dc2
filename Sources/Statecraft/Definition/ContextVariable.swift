/// A variable of the machine's extended state, typed by its initial value.
public struct ContextVariable: Sendable {
    /// The variable's name.
    public var name: Named
    /// Its value when the machine starts, which also gives its type.
    public var initialValue: Value

    /// A variable named `name` starting at `initialValue`.
    public init(_ name: Named, _ initialValue: Value) {
        self.name = name
        self.initialValue = initialValue
    }
}
