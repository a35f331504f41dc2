/// An input the machine accepts, and the type of its argument if it takes one.
public struct InputDeclaration: Sendable {
    public var name: Named
    public var argumentType: ValueType?
    public var description: String?
    /// Where the argument type was written, for diagnostics.
    public var argumentTypeLocation: SourceLocation

    public init(
        _ name: Named, argumentType: ValueType? = nil, description: String? = nil,
        argumentTypeLocation: SourceLocation = .unknown
    ) {
        self.name = name
        self.argumentType = argumentType
        self.description = description
        self.argumentTypeLocation = argumentTypeLocation
    }
}
