/// An input a machine reacts to, carrying an argument of type `Argument` (`Void` for none).
///
/// Inputs are identified by value, their name and argument type: two `Input<Int>("count")` made
/// anywhere are the same input, so they need not be shared singletons (Jester's `BaseInput`
/// made a fresh UUID per instance). Making an input interns its name and argument type for the
/// life of the process, as selectors are; make inputs from declarations, not from unbounded
/// run-time data (a ``StateMachine`` takes names as strings for that).
///
/// ```swift
/// enum Inputs {
///     static let startEngine = Input("startEngine")                     // Input<Void>
///     static let passengersHaveEntered = Input("passengersHaveEntered", taking: Int.self)
/// }
/// machine.send(Inputs.passengersHaveEntered, 4)   // the argument's type is checked at compile time
/// ```
public struct Input<Argument: Sendable>: Hashable, Sendable, CustomStringConvertible {
    /// The input's interned name and argument type.
    @usableFromInline let key: InputKey

    /// An input named `name` whose argument is an `Argument` (Stated's `input(taking:)`).
    public init(_ name: String, taking argument: Argument.Type) {
        key = InputKey(name: name, argumentType: Argument.self)
    }

    /// The input of an interned identity (``After``'s).
    init(key: InputKey) {
        self.key = key
    }

    /// The input's name.
    public var name: String { key.name }

    /// The input's name.
    public var description: String { name }

    /// The input with this argument, as results report it.
    @inlinable
    func sent(_ argument: Argument, queued: Bool) -> SentInput {
        SentInput(.interned(key), argument: argument, isQueued: queued)
    }
}

extension Input where Argument == Void {
    /// An input named `name` that takes no argument.
    public init(_ name: String) {
        self.init(name, taking: Void.self)
    }
}

/// An input as it was sent: its name and argument. Results carry one.
public struct SentInput: Sendable, CustomStringConvertible {
    /// How a sent input is identified.
    @usableFromInline
    enum Identity: Sendable {
        /// A typed machine's input.
        case interned(InputKey)
        /// A name sent to a ``StateMachine`` (known to it or not, and with any argument), compared
        /// by its text, so that names sent at run time are not interned.
        case named(String, argumentType: ObjectIdentifier)
    }

    @usableFromInline let identity: Identity
    /// The argument it was sent with (`()` for an input without one).
    public let argument: any Sendable
    /// Whether an effect sent it, so that it was queued and ran after the transition that sent
    /// it (run to completion) rather than being sent from outside.
    public let isQueued: Bool

    @inlinable
    init(_ identity: Identity, argument: any Sendable, isQueued: Bool) {
        self.identity = identity
        self.argument = argument
        self.isQueued = isQueued
    }

    /// The input's name.
    public var name: String {
        switch identity {
        case .interned(let key): key.name
        case .named(let name, _): name
        }
    }

    /// Whether this is `input`: the same name and argument type.
    public func `is`<A>(_ input: Input<A>) -> Bool {
        switch identity {
        case .interned(let key): key == input.key
        case .named(let name, let argumentType): argumentType == ObjectIdentifier(A.self) && name == input.name
        }
    }

    /// For the result of a delayed transition's timer (an ``After`` row, or a machine file's
    /// `after:`), its delay; `nil` for an input that was sent. Such a result's input is named
    /// `after 30s` and takes no argument.
    public var after: Duration? {
        let name: String
        switch identity {
        case .interned(let key):
            guard key.identity.argumentType == ObjectIdentifier(After.self) else { return nil }
            name = key.name
        case .named(let named, let argumentType):
            guard argumentType == ObjectIdentifier(After.self) else { return nil }
            name = named
        }
        guard name.hasPrefix("after "), let milliseconds = try? Delay.milliseconds(name.utf8.dropFirst(6)) else { return nil }
        return .milliseconds(milliseconds)
    }

    /// The argument, when this is `input`.
    public func argument<A>(of input: Input<A>) -> A? { self.is(input) ? argument as? A : nil }

    /// The name, followed by the argument unless it is `()`.
    public var description: String {
        argument is Void ? name : "\(name)(\(argument))"
    }
}
