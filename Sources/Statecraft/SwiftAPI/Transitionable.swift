/// A state type that decides for itself which transitions are allowed (Gauntlet): a machine
/// over it moves from one value to another only when ``shouldTransition(to:)`` says so.
///
/// Enums with associated values work as they are: values are compared by the predicate, and
/// the value entered carries its data.
///
/// ```swift
/// enum TrafficLight: Transitionable {
///     case red, yellow, green
///     func shouldTransition(to next: TrafficLight) -> Bool {
///         switch (self, next) {
///         case (.red, .green), (.green, .yellow), (.yellow, .red): true
///         default: false
///         }
///     }
/// }
/// ```
public protocol Transitionable: Sendable {
    /// Whether the machine may move from this state to `next`.
    func shouldTransition(to next: Self) -> Bool
}

/// A machine over a ``Transitionable`` state (Gauntlet's `StateMachine`), usable as a property
/// wrapper: `@PredicateStateMachine var light: TrafficLight = .red`.
///
/// ``transition(to:)`` applies a valid target at once, before it returns, and ignores an invalid
/// one. Transitions are published in the order they were made: to ``transitions`` (the wrapper's
/// `$` projection) and to ``observeTransitions(_:)``'s callbacks, which are called after the
/// transition, outside the machine's lock, and never nested: a callback that requests a
/// transition sees it applied at once, and published after the callback returns.
///
/// It runs on the same engine as ``TypedStateMachine``: one state slot holding the current
/// value, and one input, `transition(to:)`, guarded by ``Transitionable/shouldTransition(to:)``.
@propertyWrapper
public final class PredicateStateMachine<State: Transitionable>: Sendable {
    /// The engine's only state, holding the current value.
    @usableFromInline
    struct Current: MachineState {
        @usableFromInline
        enum Slot: Sendable { case current }

        @usableFromInline let value: State
        @usableFromInline var slot: Slot { .current }

        @usableFromInline
        init(value: State) {
            self.value = value
        }
    }

    @usableFromInline let machine: TypedStateMachine<Current, Void>
    @usableFromInline let request = Input("transition(to:)", taking: State.self)

    /// A machine in `initialState`.
    public init(initialState: State) {
        let request = request
        machine = TypedStateMachine(initial: Current(value: initialState)) {
            request.given(.current)
                .transition(to: .current) { Current(value: $0.argument) }
                .when { $0.from.value.shouldTransition(to: $0.argument) }
        }
    }

    /// The property wrapper's initializer: the property's initial value is the initial state.
    public convenience init(wrappedValue: State) {
        self.init(initialState: wrappedValue)
    }

    /// The current state.
    @inlinable
    public var state: State {
        machine.state.value
    }

    /// Moves to `newState` if the current state allows it, and publishes the transition;
    /// otherwise does nothing. Returns whether it moved.
    @inlinable
    @discardableResult
    public func transition(to newState: State) -> Bool {
        machine.send(request, newState).isSuccess
    }

    /// The current state; setting it requests ``transition(to:)``, ignored when invalid.
    public var wrappedValue: State {
        get { state }
        set { transition(to: newValue) }
    }

    /// Every transition from now on, in order. Each access is a new subscription, which ends
    /// when the machine is released.
    public var transitions: AsyncStream<(from: State, to: State)> {
        machine.observers.results { result in result.transition.map { ($0.from.value, $0.to.value) } }
    }

    /// ``transitions``, as the wrapper's `$` projection: `for await (from, to) in $light { ... }`.
    public var projectedValue: AsyncStream<(from: State, to: State)> {
        transitions
    }

    /// Calls `handler` with every transition from now on, in order.
    public func observeTransitions(_ handler: @escaping @Sendable (_ from: State, _ to: State) -> Void) -> Observation {
        machine.observeResults { result in
            if let transition = result.transition { handler(transition.from.value, transition.to.value) }
        }
    }
}
