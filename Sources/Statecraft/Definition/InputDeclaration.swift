/// An input the machine accepts, and the type of its argument if it takes one.
package struct InputDeclaration: Sendable {
    /// The input's name.
    package var name: Named
    /// The type of its argument; `nil` when it takes none.
    package var argumentType: ValueType?
    /// What the input means, for readers.
    package var description: String?
    /// An internal input may be sent only by the machine's effects: sent from outside (a
    /// script, `--send`, ``StateMachine/send(_:_:)``) it is an `unknown-input` rejection.
    package var isInternal: Bool
    /// Where the argument type was written, for diagnostics.
    package var argumentTypePosition: SourcePosition

    /// An input named `name`, taking an `argumentType` argument (none when `nil`).
    package init(
        _ name: Named, argumentType: ValueType? = nil, description: String? = nil,
        argumentTypePosition: SourcePosition = .unknown, isInternal: Bool = false
    ) {
        self.name = name
        self.argumentType = argumentType
        self.description = description
        self.argumentTypePosition = argumentTypePosition
        self.isInternal = isInternal
    }
}
