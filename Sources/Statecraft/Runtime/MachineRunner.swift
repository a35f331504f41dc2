/// What every runner of a ``CompiledMachine`` does and shows, whichever policy it runs the
/// machine with: ``TableRunner``, the flat dispatch table (one active state), or
/// ``ChartRunner``, SCXML's algorithm (with the leaf table of nested-only charts as its own
/// fast path). The machine's compiler chose the policy (``CompiledMachine/visitRunner(_:)``);
/// what a runner publishes is the same: one ``TransitionResult`` per step, through one
/// ``ResultSink``, read through this view and worded by ``message(for:inputName:argument:)``.
@usableFromInline
package protocol MachineRunner: Sendable {
    /// A runner in the machine's initial configuration and context, not yet started.
    init(_ machine: CompiledMachine, stepLimit: Int, timerLimit: Int)

    /// The machine it runs.
    var machine: CompiledMachine { get }
    /// Steps (queued inputs, eventless microsteps, timers at one instant) per external input
    /// before `step-limit`.
    var stepLimit: Int { get set }
    /// The most timers that may be pending: a step that would start more is `timer-limit`.
    var timerLimit: Int { get set }
    /// Receives the lines effects' `log` steps write; `nil` drops them.
    var logHandler: EffectLogHandler? { get set }
    /// The machine's clock, in milliseconds.
    var time: Int { get }
    /// Counts the changes of the context: a caller that shows the context may keep what it
    /// showed last while this stays the same.
    var contextVersion: Int { get }
    /// The context's values by variable id, possibly followed by the runner's own slots: read
    /// without a copy (``context`` copies for a statechart).
    var contextStorage: [Value] { get }
    /// How many timers are pending.
    var pendingTimerCount: Int { get }
    /// When the next timer is due, in milliseconds on the machine's clock, or `nil`.
    mutating func nextTimerDue() -> Int?

    /// Enters the initial configuration: a start result when its entry effects ran (or failed),
    /// then what follows it (run to completion).
    mutating func start<Sink: ResultSink & ~Copyable>(into sink: inout Sink) where Sink.Runner == Self
    /// Processes one external input whose argument has been checked, then what follows it.
    mutating func send<Sink: ResultSink & ~Copyable>(_ input: Int, argument: Value, into sink: inout Sink) where Sink.Runner == Self
    /// Moves the clock forward to `time`, firing every timer due by then in order.
    mutating func advance<Sink: ResultSink & ~Copyable>(to time: Int, into sink: inout Sink) where Sink.Runner == Self
    /// Fires the next timer due by `time`, if any, and returns it: one step of ``advance(to:into:)``.
    mutating func fireNextTimer<Sink: ResultSink & ~Copyable>(dueBy time: Int, instant: inout TimerInstant, into sink: inout Sink)
        -> TimerQueue.Timer? where Sink.Runner == Self
    /// Queues `input` behind the inputs already queued, as sent by effect `sentBy`: for a sink's
    /// ``ResultSink/receive(_:from:)``. Its argument must be one the input accepts.
    mutating func enqueue(_ input: Int, argument: Value, sentBy: Int)
    /// Resumes the clock at `time` with these pending timers (a snapshot's), firing none.
    mutating func restoreTimers(time: Int, pending: [TimerQueue.Timer])
    /// The pending timers, in the order they would fire.
    var pendingTimers: [TimerQueue.Timer] { get }
    /// What a snapshot holds beside the context and timers: the state (a statechart's first
    /// active atomic state), a statechart's configuration and its history records.
    var savedState: (state: Int, configuration: [Int], histories: [Int: [Int]]) { get }
    /// Resumes from a snapshot decoded for this runner's machine (``SnapshotCodec`` checked it),
    /// without running entry effects; its pending timers fire when the clock moves.
    mutating func restore(_ snapshot: MachineSnapshot)

    /// What one instance of the machine holds between inputs (its configuration, context, clock
    /// and timers), apart from what its instances share: for a caller that runs many instances
    /// on one runner (RunnerInstances.swift).
    associatedtype Instance: Sendable
    /// A copy of the runner's instance: what a new instance starts from, or a restored one.
    var instance: Instance { get }
    /// Puts `instance` in place of the runner's own, and the runner's into `instance`, between
    /// inputs.
    mutating func exchangeInstance(_ instance: inout Instance)

    /// The result of an input rejected before it reached the machine (unknown name, bad
    /// argument); `input` is -1 for an unknown name.
    mutating func rejection(_ kind: RejectionKind, input: Int) -> TransitionResult
    /// The argument of a queued input's or a delayed send's result while a sink receives it;
    /// `nil` for an external input (whose argument is the caller's) and the start.
    func queuedArgument(of result: TransitionResult) -> Value?

    /// Calls `body` with each active atomic state, in document order: before the step of
    /// `result` (while a sink receives it; the start shows the configuration it entered), or
    /// after it.
    func forEachState(before: Bool, of result: TransitionResult, _ body: (Int) -> Void)
    /// Calls `body` with the effects the step of `result` ran, in order, as lists the machine
    /// compiled (a state's exit or entry effects, a transition's) or one by one.
    func forEachEffectList(of result: TransitionResult, _ body: (EffectList) -> Void)
    /// Calls `body` with each transition the step of `result` took (a refusal: the transition
    /// that refused it): its index in ``CompiledMachine/transitions``, its source state and its
    /// targets.
    func forEachTransitionTaken(of result: TransitionResult, _ body: (_ transition: Int, _ source: Int, _ targets: ArraySlice<Int32>) -> Void)
    /// Whether `state` is active: an active atomic state or an ancestor of one.
    func isActive(_ state: Int) -> Bool
    /// Whether the machine has finished: it takes no more inputs (a flat machine in a final
    /// state; a statechart that entered a top-level final state).
    var isFinished: Bool { get }

    /// Where the machine rests, as a value that tells configurations apart: two runners of one
    /// machine have equal configurations exactly when the same states are active (a flat
    /// machine's state, a statechart's active states).
    associatedtype Configuration: Hashable
    /// The active states now, as a ``Configuration`` (the path search counts its visits per
    /// configuration).
    var configuration: Configuration { get }
    /// Calls `body` with every active state now, atomic states and their ancestors, in id order.
    func forEachActiveState(_ body: (Int) -> Void)
    /// Calls `body` with each state the step of `result` made active (while a sink receives it):
    /// active after it and not before it, in id order; a state exited and entered again by the
    /// step is not one. For the start, every state of the configuration it entered.
    func forEachStateEntered(by result: TransitionResult, _ body: (Int) -> Void)

    /// Starts the `after` timers of every active state, in document order, as entering them
    /// does: for a machine resumed in a given configuration (a scenario's `state:`).
    mutating func startTimersOfActiveStates()
    /// Sets the context before ``start(into:)``, as a scenario's `context` does: the start's
    /// entry effects and guards then read these values.
    mutating func setContextBeforeStart(_ context: [Value])
    /// A sentence saying why `result` was rejected or ignored (or what an accepted step did),
    /// naming the input and the configuration it met, while a sink receives it
    /// (ResultMessages.swift). Built only when a result is reported, never on the hot path.
    ///
    /// - Parameters:
    ///   - inputName: the name as written, for an input unknown to the machine.
    ///   - argument: the input's argument, shown by a `guard-rejected` message when a guard reads it.
    func message(for result: TransitionResult, inputName: String?, argument: Value) -> String
    /// The guards of `input` that the step of `result` found false, as a `guard-rejected`
    /// message shows them (the values each read), or `nil`.
    func falseGuards(of result: TransitionResult, argument: Value) -> String?

    /// The cell of `input` in the current configuration, when the runner settles inputs per
    /// cell (``sendSettled(_:argument:)``); a caller keeps what it shows per cell there.
    func cell(of input: Int) -> Int
    /// The cell an external input's `result` was taken in (its state before the step).
    func cell(before result: TransitionResult) -> Int
    /// Processes an external input whose result depends on its cell alone, without telling a
    /// sink (the caller shows the cell's result, ``forEachSettledCell(_:)``), and returns its
    /// outcome; `nil`, with nothing changed, for any other input. `argument` is called only
    /// when the step copies values.
    mutating func sendSettled(_ input: Int, argument: () -> Value) -> TransitionResult.Outcome?
    /// Calls `body` with every cell whose result depends on the cell alone and that
    /// ``sendSettled(_:argument:)`` takes: its index, its result and a runner showing it. None
    /// for a machine too large to go through cell by cell.
    func forEachSettledCell(_ body: (_ cell: Int, _ result: TransitionResult, _ runner: inout Self) -> Void)
}

/// Effects a step ran, as a runner hands them to ``MachineRunner/forEachEffectList(of:_:)``.
@usableFromInline
package enum EffectList: Sendable {
    /// A state's exit effects (``CompiledMachine/exitEffects``).
    case exit(state: Int)
    /// A transition's own effects (``CompiledMachine/transitions``).
    case transition(Int)
    /// A state's entry effects (``CompiledMachine/entryEffects``).
    case entry(state: Int)
    /// One effect.
    case effect(Int)
}

/// Code that runs a machine with whichever runner its compiler chose: the one place where the
/// policy becomes a type (``CompiledMachine/visitRunner(_:)``).
@usableFromInline
package protocol RunnerVisitor {
    associatedtype Output
    /// Runs with the runner type `runner`.
    func visit<Runner: MachineRunner>(_ runner: Runner.Type) -> Output
}

/// Limits a runner starts with unless told otherwise.
public enum RunLimits {
    /// Steps (queued inputs, eventless microsteps) per external input before `step-limit`.
    public static let defaultStepLimit = 10_000
    /// Timers that may be pending at once before `timer-limit`.
    public static let defaultTimerLimit = 100_000
}

extension CompiledMachine {
    /// Calls `visitor` with the runner type for this machine: ``TableRunner`` for a flat machine,
    /// ``ChartRunner`` for a statechart. Inlinable, so that the caller's code is specialised for
    /// each runner (called through a witness table from here, smrun's loop ran unspecialised and
    /// took 410 instructions a line of the car script instead of 311).
    @inlinable
    package func visitRunner<Visitor: RunnerVisitor>(_ visitor: Visitor) -> Visitor.Output {
        chart == nil ? visitor.visit(TableRunner.self) : visitor.visit(ChartRunner.self)
    }

    /// Whether a step's JSON result lists the transitions it took (`"transitions"`): a statechart's
    /// do, where several may be taken at once; a flat machine's step takes at most one, which
    /// `from` and `to` already show (docs/cli.md).
    package var listsTransitionsTaken: Bool { chart != nil }
}

extension MachineRunner {
    /// The context's values, by variable id.
    @inlinable package var context: [Value] {
        let storage = contextStorage
        let count = machine.variableNames.count
        return storage.count == count ? storage : Array(storage[..<count])
    }

    /// Calls `body` with each effect the step of `result` ran, in order.
    package func forEachEffect(of result: TransitionResult, _ body: (Int) -> Void) {
        forEachEffectList(of: result) { list in
            switch list {
            case .exit(let state): for effect in machine.exitEffects[state] { body(effect) }
            case .transition(let transition): for effect in machine.transitions[transition].effects { body(effect) }
            case .entry(let state): for effect in machine.entryEffects[state] { body(effect) }
            case .effect(let effect): body(effect)
            }
        }
    }

    /// The names of the active atomic states after the latest step, in document order.
    package var activeStateNames: [String] { activeStates.map { machine.stateNames[$0] } }

    /// The active atomic states after the latest step, in document order.
    package var activeStates: [Int] {
        var states: [Int] = []
        forEachState(before: false, of: TransitionResult(.external, input: -1)) { states.append($0) }
        return states
    }
}
