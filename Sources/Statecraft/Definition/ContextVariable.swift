/// A variable of the machine's extended state, typed by its initial value.
public struct ContextVariable: Sendable {
    public var name: Named
    public var initialValue: Value

    public init(_ name: Named, _ initialValue: Value) {
        self.name = name
        self.initialValue = initialValue
    }
}
