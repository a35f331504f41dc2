/// A guard written in Swift, for machines built with the typed API: the runner evaluates it
/// like a guard expression (``CompiledExpression/host(_:)``), in selection order (docs/semantics.md).
///
/// It receives the runner's context and the input's argument; a typed machine's closure reads
/// its typed context and argument from the machine instead, which holds its lock meanwhile.
package struct HostCondition: Sendable {
    /// Whether the guard holds.
    package let holds: @Sendable (_ context: [Value], _ argument: Value) -> Bool

    /// A guard that holds when `holds` returns true.
    package init(_ holds: @escaping @Sendable (_ context: [Value], _ argument: Value) -> Bool) {
        self.holds = holds
    }
}
