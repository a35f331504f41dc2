/// An input a machine reacts to, carrying an argument of type `Argument` (`Void` for none).
///
/// Inputs are identified by value, their name and argument type: two `Input<Int>("count")` made
/// anywhere are the same input, so they need not be shared singletons (Jester's `BaseInput`
/// made a fresh UUID per instance).
///
/// ```swift
/// enum Inputs {
///     static let startEngine = Input("startEngine")                     // Input<Void>
///     static let passengersHaveEntered = Input("passengersHaveEntered", taking: Int.self)
/// }
/// machine.send(Inputs.passengersHaveEntered, 4)   // the argument's type is checked at compile time
/// ```
public struct Input<Argument: Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// The input's name, used in results and messages.
    public let name: String
    /// The name's hash, computed once, so that a machine finds the input's id on each send
    /// without hashing the name (``InputTable``).
    @usableFromInline let nameHash: Int

    /// An input named `name` whose argument is an `Argument` (Stated's `input(taking:)`).
    public init(_ name: String, taking argument: Argument.Type) {
        self.name = name
        nameHash = InputKey.hash(of: name)
    }

    /// The input's name.
    public var description: String { name }

    /// The input with this argument, as results report it.
    @inlinable
    func sent(_ argument: Argument, queued: Bool) -> SentInput {
        SentInput(key: key, argument: argument, isQueued: queued)
    }

    @inlinable
    var key: InputKey { InputKey(name: name, argumentType: ObjectIdentifier(Argument.self)) }
}

extension Input where Argument == Void {
    /// An input named `name` that takes no argument.
    public init(_ name: String) {
        self.init(name, taking: Void.self)
    }
}

/// An input as it was sent: its name and argument. Results carry one.
public struct SentInput: Sendable, CustomStringConvertible {
    @usableFromInline let key: InputKey
    /// The argument it was sent with (`()` for an input without one).
    public let argument: any Sendable
    /// Whether an effect sent it, so that it was queued and ran after the transition that sent
    /// it (run to completion) rather than being sent from outside.
    public let isQueued: Bool

    @inlinable
    init(key: InputKey, argument: any Sendable, isQueued: Bool) {
        self.key = key
        self.argument = argument
        self.isQueued = isQueued
    }

    /// The input's name.
    public var name: String { key.name }

    /// Whether this is `input`: the same name and argument type.
    public func `is`<A>(_ input: Input<A>) -> Bool { key == input.key }

    /// The argument, when this is `input`.
    public func argument<A>(of input: Input<A>) -> A? { key == input.key ? argument as? A : nil }

    /// The name, followed by the argument unless it is `()`.
    public var description: String {
        argument is Void ? name : "\(name)(\(argument))"
    }
}

/// What identifies an input: its name and argument type.
@usableFromInline
struct InputKey: Hashable, Sendable {
    @usableFromInline let name: String
    @usableFromInline let argumentType: ObjectIdentifier

    @inlinable
    init(name: String, argumentType: ObjectIdentifier) {
        self.name = name
        self.argumentType = argumentType
    }

    /// The hash ``Input`` keeps of its name, and ``InputTable`` files it by.
    static func hash(of name: String) -> Int {
        name.hashValue
    }
}
