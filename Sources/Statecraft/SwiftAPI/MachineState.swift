/// A state of a ``TypedStateMachine``.
///
/// An enum without associated values conforms with no code: its cases are its states, and rows
/// name them directly (`.parked => .drivingAround`).
///
/// States that carry data (Stated's states built from an input's argument and from the
/// previous state) declare a `Slot`, usually their cases without the data: the machine's table
/// is built over slots, rows leave from slots, and a row that builds its target's data names
/// the target's slot.
///
/// ```swift
/// enum Launch: MachineState {
///     case uninitialized
///     case loggedIn(account: Account)
///
///     enum Slot { case uninitialized, loggedIn }
///     var slot: Slot {
///         switch self {
///         case .uninitialized: .uninitialized
///         case .loggedIn: .loggedIn
///         }
///     }
/// }
/// ```
public protocol MachineState: Sendable {
    /// What the machine's table tells states apart by; `Self` unless states carry data.
    associatedtype Slot: Hashable & Sendable = Self
    /// The state's slot.
    var slot: Slot { get }
}

extension MachineState where Slot == Self {
    /// The state itself: each state is its own slot.
    public var slot: Self { self }
}
