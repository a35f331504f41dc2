/// A variable of the machine's extended state, typed by its initial value.
package struct ContextVariable: Sendable {
    /// The variable's name.
    package var name: Named
    /// Its value when the machine starts, which also gives its type.
    package var initialValue: Value

    /// A variable named `name` starting at `initialValue`.
    package init(_ name: Named, _ initialValue: Value) {
        self.name = name
        self.initialValue = initialValue
    }
}
