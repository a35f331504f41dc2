// Saving and restoring a typed machine whose State and Context are `Codable`, in the snapshot
// format that `smrun --state` writes (docs/snapshots.md, "Typed machines").

extension TypedStateMachine where State: Codable, Context: Codable {
    /// The machine's snapshot: a JSON document in the format `smrun --state` writes, to give to
    /// ``init(restoring:onUnhandled:stepLimit:clock:rules:)`` later, in this process or another.
    ///
    /// ```json
    /// {
    ///   "format": "statecraft-snapshot",
    ///   "version": 1,
    ///   "machine": "Light",
    ///   "fingerprint": "sha256:...",
    ///   "state": "green",
    ///   "context": {
    ///     "cycles": 2
    ///   },
    ///   "clock": "virtual",
    ///   "time": 40000,
    ///   "timers": [
    ///     {"due": 55000, "after": "25s", "state": "green"}
    ///   ]
    /// }
    /// ```
    ///
    /// `"state"` is the current state as `State` encodes it, `"context"` the context as
    /// `Context` encodes it. A machine with delayed rows (``After``) also saves its clock's time
    /// (milliseconds since it started, on its clock) and its pending timers, which fire as
    /// they would have when the snapshot is restored. The fingerprint covers the table's
    /// structure, not its closures (see ``init(restoring:onUnhandled:stepLimit:clock:rules:)``).
    ///
    /// Take it between inputs: calling it from one of the machine's effects, guards or builders
    /// stops the program. Results' callbacks and streams may take it.
    ///
    /// - Returns: the document as UTF-8 bytes, ending with a newline (`Data(bytes)` or
    ///   `String(decoding: bytes, as: UTF8.self)` where Foundation or text is wanted).
    /// - Throws: what encoding the state or the context throws.
    public func snapshot() throws -> [UInt8] {
        let (machine, state, context, time, timers) = observers.lock.withLock {
            precondition(
                observers.lock.depth == 1,
                "TypedStateMachine.snapshot() was called inside one of the machine's effects, guards or builders: take a snapshot between inputs")
            var time = 0
            if let timerDriver {
                // Never past the next timer: one due but not yet fired stays pending, and fires
                // as soon as the restored machine's clock is read.
                time = min(timerDriver.now(notBefore: runner.time), runner.nextTimerDue() ?? .max)
            }
            return (runner.machine, frame.state, frame.context, time, runner.timers.pending.map(SnapshotTimer.init))
        }
        let codec = SnapshotCodec(machine, fingerprint: MachineFingerprint(structure))
        return codec.encodeTyped(state: try .encoding(state), context: try .encoding(context), time: time, timers: timers)
    }

    /// The machine saved in `snapshot` (a document made by ``snapshot()``), following `rules`:
    /// it resumes in the saved state, with the saved context and pending timers, without taking
    /// any row. If the saved state is a work state, its work starts over.
    ///
    /// The snapshot must have been saved by a machine with the same table: the fingerprint
    /// covers the states (their slots, by name), which of them are final or work states, the
    /// inputs (by name; a delayed row's by its delay), and each row's input, source states and
    /// target state, in order. It leaves out the rows' closures (guards, effects, the builders
    /// of targets, works) and the initial state: changing what a guard or an effect does keeps
    /// the fingerprint; adding, removing, reordering or redirecting a row changes it.
    ///
    /// ```swift
    /// let saved = try light.snapshot()
    /// let resumed = try TypedStateMachine<Light, Cycles>(restoring: saved, clock: clock) { rows }
    /// ```
    ///
    /// - Parameters:
    ///   - snapshot: the document, as UTF-8 bytes (`Array(data)` from Foundation's `Data`).
    ///   - onUnhandled: what an input without a transition from the current state gives, as
    ///     for ``init(initial:context:onUnhandled:stepLimit:clock:rules:)``.
    ///   - stepLimit: how many queued inputs one external input may cause before `stepLimit`.
    ///   - clock: the clock that fires the timers of delayed rows; it reads the snapshot's time
    ///     now, so a timer due 10 seconds after the snapshot was taken fires 10 seconds from now.
    ///   - rules: the rows, work states and final states, in order: those of the machine that
    ///     saved the snapshot.
    /// - Throws: a ``SnapshotError``: `syntax`, `notASnapshot`, `unsupportedVersion` or
    ///   `invalidField` for a document that is not a whole snapshot, naming what is wrong;
    ///   `differentMachine` when it was saved by another table, naming both fingerprints;
    ///   `unknownState` or `invalidContext` when `"state"` or `"context"` does not decode as
    ///   `State` or `Context`, saying where and why; `invalidTimer` for a pending timer the
    ///   table cannot have.
    public convenience init(
        restoring snapshot: [UInt8], onUnhandled: MachineDefinition.UnhandledPolicy = .reject,
        stepLimit: Int = RunLimits.defaultStepLimit, clock: any Clock<Duration> = ContinuousClock(),
        @MachineBuilder<State, Context> rules: () -> MachineRules<State, Context>
    ) throws(SnapshotError) {
        let saved = try SavedTypedSnapshot.read(snapshot)
        let rules = rules()
        // The fingerprint leaves the initial state out, so the table's can be computed before
        // the saved state is decoded: a snapshot of another machine is refused as such.
        let fingerprint = MachineFingerprint(TypedMachineCompiler.table(initial: nil, rules: rules).structure)
        guard saved.fingerprint == fingerprint.text else {
            throw SnapshotCodec.differentMachine(
                saved: saved.machineName, saved.fingerprint, machine: String(describing: State.self), fingerprint)
        }
        let state: State
        do {
            state = try saved.state.decoded(as: State.self)
        } catch {
            throw SnapshotError(.unknownState, "\"state\" is not a \(State.self): \(decodingProblem(error, under: "state"))")
        }
        let context: Context
        do {
            context = try saved.context.decoded(as: Context.self)
        } catch {
            throw SnapshotError(.invalidContext, "\"context\" is not a \(Context.self): \(decodingProblem(error, under: "context"))")
        }
        let frame = TypedFrame(state: state, context: context)
        let table = TypedMachineCompiler.table(initial: state.slot, rules: rules)
        let compiled = TypedMachineCompiler.compile(table, onUnhandled: onUnhandled, frame: frame)
        let codec = SnapshotCodec(compiled.machine, fingerprint: fingerprint)
        let timers = try codec.typedTimers(saved, state: compiled.machine.initialState)
        self.init(
            frame: frame, compiled: compiled, structure: table.structure, stepLimit: stepLimit, clock: clock,
            restoring: (saved.time, timers))
    }
}
