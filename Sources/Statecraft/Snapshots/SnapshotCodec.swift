/// Writes and reads snapshots of one machine as JSON documents:
///
/// ```json
/// {
///   "format": "statecraft-snapshot",
///   "version": 1,
///   "machine": "counter",
///   "fingerprint": "sha256:e0a5cd5777ac6e74e2c77110e97f0044a43c6f9235903b8081235548daeb55ff",
///   "state": "odd",
///   "context": {
///     "count": 3
///   }
/// }
/// ```
///
/// A statechart with nested states saves its configuration as `"state": ["muted", "hd"]` (the
/// active atomic states in document order), and one with history states what each recorded as
/// `"history": {"lastPlayback": ["muted", "hd"]}` (a history whose parent was never left is not
/// there). A machine with timers adds its clock and pending timers: `"clock": "virtual"`,
/// `"time": 60000` and `"timers": [{"due": 90000, "after": "30s", "state": "red"}]`.
///
/// Context values are typed JSON values; a double that is not finite is written as the string
/// `"Infinity"`, `"-Infinity"` or `"NaN"`. Reading is strict: every member must be there with
/// its JSON type, nothing else may be, the state must be one of the machine's, and the context
/// must hold exactly the machine's variables, each a value of the variable's type.
///
/// Computing the fingerprint walks the whole machine: make one codec per machine and keep it.
package struct SnapshotCodec: Sendable {
    /// The machine it reads and writes snapshots for.
    package let machine: CompiledMachine
    /// The machine's fingerprint, computed once.
    package let fingerprint: MachineFingerprint
    /// Whether `"state"` is a configuration (an array): the machine is a statechart with nested
    /// states. A statechart without nesting is always in one state, saved as a name.
    let savesConfiguration: Bool
    /// Whether the snapshot has a `"history"` member: the machine has history states.
    let savesHistory: Bool
    /// The members every document of this machine starts with (`format`, `version`, `machine`,
    /// `fingerprint`), written once: a store encodes a snapshot for every input.
    let documentStart: [UInt8]

    /// A codec for `machine`; computes its fingerprint.
    package init(_ machine: CompiledMachine) {
        self.init(machine, fingerprint: MachineFingerprint(machine))
    }

    /// A codec for `machine`, whose fingerprint is `fingerprint` (a typed machine's, which
    /// covers its table alone).
    init(_ machine: CompiledMachine, fingerprint: MachineFingerprint) {
        self.machine = machine
        self.fingerprint = fingerprint
        let tree = machine.chart?.tree
        savesConfiguration = tree?.parents.contains(where: { $0 >= 0 }) ?? false
        savesHistory = tree?.kinds.contains { $0.isHistory } ?? false
        documentStart = SnapshotDocumentWriter(machine: machine.name, fingerprint: fingerprint.text).bytes
    }

    /// The runner's configuration (its state, for a flat machine), history records, context, and
    /// for a machine with timers its clock and pending timers, as a snapshot on the virtual clock
    /// (set ``MachineSnapshot/clock`` for the real one). Take it between inputs (after
    /// ``MachineRunner/send(_:argument:into:)`` returns, every queued input has run), never from a
    /// ``ResultSink`` in the middle of a run to completion.
    ///
    /// Also compiled for the two runners: a caller in another module (the store) reaches the
    /// generic code, which would copy the whole machine to read the context's length.
    @_specialize(exported: false, where Runner == TableRunner)
    @_specialize(exported: false, where Runner == ChartRunner)
    package func snapshot<Runner: MachineRunner>(of runner: Runner) -> MachineSnapshot {
        let saved = runner.savedState
        return MachineSnapshot(
            machineName: machine.name, fingerprint: fingerprint, state: saved.state, context: runner.context,
            configuration: saved.configuration, histories: saved.histories, time: machine.hasTimers ? runner.time : 0,
            timers: runner.pendingTimers.map(SnapshotTimer.init))
    }

    /// The snapshot document for a flat machine's `state` and `context`, ending with a newline.
    package func encode(state: Int, context: [Value]) -> [UInt8] {
        encode(MachineSnapshot(machineName: machine.name, fingerprint: fingerprint, state: state, context: context))
    }

    /// The JSON document for `snapshot`, ending with a newline. A machine with timers also
    /// saves the clock and the pending timers.
    package func encode(_ snapshot: MachineSnapshot) -> [UInt8] {
        let configuration = snapshot.configuration.isEmpty ? [snapshot.state] : snapshot.configuration
        let context = snapshot.context
        precondition(
            configuration.allSatisfy(machine.stateNames.indices.contains) && (savesConfiguration || configuration.count == 1)
                && context.count == machine.variableNames.count)
        var writer = SnapshotDocumentWriter(continuing: documentStart)
        writer.member("state")
        func names(_ states: [Int]) {
            writer.append(UInt8(ascii: "["))
            for (index, state) in states.enumerated() {
                if index > 0 { writer.append(", ") }
                writer.string(machine.stateNames[state])
            }
            writer.append(UInt8(ascii: "]"))
        }
        if savesConfiguration { names(configuration) } else { writer.string(machine.stateNames[configuration[0]]) }
        if savesHistory {
            writer.member("history")
            writer.append(UInt8(ascii: "{"))
            for (index, history) in snapshot.histories.keys.sorted().enumerated() {
                writer.append(index == 0 ? "\n    " : ",\n    ")
                writer.string(machine.stateNames[history])
                writer.append(": ")
                names(snapshot.histories[history]!)
            }
            writer.append(snapshot.histories.isEmpty ? "}" : "\n  }")
        }
        writer.member("context")
        writer.append(UInt8(ascii: "{"))
        for (slot, value) in context.enumerated() {
            writer.append(slot == 0 ? "\n    " : ",\n    ")
            writer.string(machine.variableNames[slot])
            writer.append(": ")
            Self.append(value, to: &writer.bytes)
        }
        writer.append(context.isEmpty ? "}" : "\n  }")
        if machine.hasTimers || !snapshot.timers.isEmpty {
            writer.member("clock")
            writer.string(snapshot.clock.rawValue)
            if snapshot.clock == .virtual {
                writer.member("time")
                writer.append(String(snapshot.time))
            }
            writer.member("timers")
            appendTimers(snapshot.timers, to: &writer.bytes)
        }
        return writer.finish()
    }

    /// `snapshot` as ``decode(_:)`` reads it back from ``encode(_:)``'s document, which keeps the
    /// clock and the time only for a machine with timers (or a snapshot with timers pending),
    /// and the time only on the virtual clock; a store that keeps a snapshot it wrote keeps this.
    package func readBack(_ snapshot: MachineSnapshot) -> MachineSnapshot {
        var read = snapshot
        let keepsClock = machine.hasTimers || !snapshot.timers.isEmpty
        if !keepsClock { read.clock = .virtual }
        if !keepsClock || read.clock == .real { read.time = 0 }
        return read
    }

    /// A context value or an argument as typed JSON (a double that is not finite as a string).
    package static func append(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d) where d.isNaN: JSONText.appendQuoted("NaN".utf8, to: &out)
        case .double(let d) where d.isInfinite: JSONText.appendQuoted((d < 0 ? "-Infinity" : "Infinity").utf8, to: &out)
        case .double(let d): out.append(contentsOf: String(d).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .string(let s): JSONText.appendQuoted(s.utf8, to: &out)
        case .null: out.append(contentsOf: "null".utf8)
        case .list(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                append(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .record(let data):
            out.append(UInt8(ascii: "{"))
            for (index, field) in data.fields.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(field.name.utf8, to: &out)
                out.append(UInt8(ascii: ":"))
                append(field.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Reads a snapshot document and checks it against the machine.
    package func decode(_ bytes: [UInt8]) throws(SnapshotError) -> MachineSnapshot {
        try check(SavedSnapshot.read(bytes))
    }

    /// Checks a snapshot document against the machine: its fingerprint, its state, its context.
    package func check(_ saved: SavedSnapshot) throws(SnapshotError) -> MachineSnapshot {
        guard saved.fingerprint == fingerprint.text else {
            throw Self.differentMachine(saved: saved.machineName, saved.fingerprint, machine: machine.name, fingerprint)
        }
        let configuration = try savedConfiguration(saved)
        let histories = try savedHistories(saved).histories
        var context = [Value?](repeating: nil, count: machine.variableNames.count)
        for (name, json) in saved.context {
            guard let slot = machine.variableNames.firstIndex(of: name) else {
                throw SnapshotError(.invalidContext, "the context has \(JSONText.quoted(name)), which is not a variable of machine '\(machine.name)'")
            }
            context[slot] = try Self.value(json, of: machine.variableTypes[slot], variable: name)
        }
        if let missing = context.firstIndex(where: { $0 == nil }) {
            throw SnapshotError(.invalidContext, "the context has no value for variable '\(machine.variableNames[missing])'")
        }
        let timers = try savedTimers(saved, configuration: configuration).timers
        return MachineSnapshot(
            machineName: saved.machineName, fingerprint: fingerprint, state: configuration[0], context: context.map { $0! },
            configuration: machine.isStatechart ? configuration : [], histories: histories, clock: saved.clock, time: saved.time,
            timers: timers)
    }

    /// The refusal of a snapshot saved by machine `savedName` with `savedFingerprint` (a
    /// fingerprint other than `fingerprint`) by machine `name`: both fingerprints, shortened.
    static func differentMachine(
        saved savedName: String, _ savedFingerprint: String, machine name: String, _ fingerprint: MachineFingerprint
    ) -> SnapshotError {
        let theirs = escaped(short(savedFingerprint))
        let ours = short(fingerprint.text)
        let message =
            savedName == name
            ? "the snapshot was saved by a different definition of machine '\(name)' (fingerprint \(theirs), this definition's is \(ours))"
            : "the snapshot belongs to machine '\(escaped(savedName))' (fingerprint \(theirs)), not to '\(name)' (fingerprint \(ours))"
        return SnapshotError(.differentMachine, message)
    }

    // MARK: - States

    /// The ids of the snapshot's state, or of its configuration's active atomic states in
    /// document order. `migrating` accepts either form of `"state"` (the machine may have gained
    /// or lost its nesting) and words the refusals for a migration.
    func savedConfiguration(_ saved: SavedSnapshot, migrating: Bool = false) throws(SnapshotError) -> [Int] {
        let refusal = migrating ? ", so the snapshot cannot be migrated" : ""
        if saved.isConfiguration != savesConfiguration && !migrating {
            throw SnapshotError(
                .invalidField,
                savesConfiguration
                    ? "\"state\" must be an array of state names: machine '\(machine.name)' has nested states"
                    : "\"state\" must be a state's name: machine '\(machine.name)' has no nested states")
        }
        var states: [Int] = []
        for name in saved.stateNames {
            guard let state = machine.stateNames.firstIndex(of: name) else {
                throw SnapshotError(
                    .unknownState,
                    (migrating
                        ? "the saved state \(JSONText.quoted(name)) is no longer a state of machine '\(machine.name)'\(refusal)"
                        : "state \(JSONText.quoted(name)) is not a state of machine '\(machine.name)'")
                        + Suggestion.didYouMean(name, in: machine.stateNames))
            }
            states.append(state)
        }
        states.sort()
        let problem: String? =
            if let tree = machine.chart?.tree {
                tree.configuration(ofAtomicStates: states).problem
            } else {
                states.count == 1 ? nil : "holds several states of a machine without nested states"
            }
        if let problem {
            throw SnapshotError(
                .unknownState, "the saved states \(saved.stateText) are no configuration of machine '\(machine.name)': the list \(problem)\(refusal)")
        }
        return states
    }

    /// The history records of the snapshot, by history state id. `lenient` (a migration) leaves
    /// out each record that no longer fits the machine instead of refusing the snapshot, and
    /// returns the names of the history states left out.
    func savedHistories(_ saved: SavedSnapshot, lenient: Bool = false) throws(SnapshotError) -> (
        histories: [Int: [Int]], forgotten: [String]
    ) {
        guard let records = saved.histories else {
            if savesHistory && !lenient { throw SnapshotError(.invalidField, "missing member \"history\"") }
            return ([:], [])
        }
        guard savesHistory, let tree = machine.chart?.tree else {
            if lenient { return ([:], records.map(\.name)) }
            throw SnapshotError(.invalidField, "unknown member \"history\": machine '\(machine.name)' has no history states")
        }
        var forgotten: [String] = []
        var histories: [Int: [Int]] = [:]
        for (name, names) in records {
            guard let history = machine.stateNames.firstIndex(of: name), tree.kinds[history].isHistory else {
                if lenient {
                    forgotten.append(name)
                    continue
                }
                throw SnapshotError(.unknownState, "\(JSONText.quoted(name)) in \"history\" is not a history state of machine '\(machine.name)'")
            }
            var states: [Int] = []
            for stateName in names {
                guard let state = machine.stateNames.firstIndex(of: stateName) else {
                    if lenient {
                        states = []
                        break
                    }
                    throw SnapshotError(
                        .unknownState,
                        "history '\(name)' records \(JSONText.quoted(stateName)), which is not a state of machine '\(machine.name)'"
                            + Suggestion.didYouMean(stateName, in: machine.stateNames))
                }
                states.append(state)
            }
            states.sort()
            if let problem = states.isEmpty ? "is empty" : tree.historyRecordProblem(history, states) {
                if lenient {
                    forgotten.append(name)
                    continue
                }
                throw SnapshotError(.unknownState, "history '\(name)' records \(names.joined(separator: ", ")), which it cannot: the list \(problem)")
            }
            histories[history] = states
        }
        return (histories, forgotten)
    }

    /// A JSON value as a value of `type`.
    static func value(_ json: JSONValue, of type: ExpressionType, variable: String) throws(SnapshotError) -> Value {
        func mismatch(_ detail: String? = nil) -> SnapshotError {
            SnapshotError(
                .invalidContext, "context variable '\(variable)' is \(type == .null ? "always null" : "of type \(type)"), but the snapshot has \(detail ?? json.kind)")
        }
        switch json {
        case .null:
            guard type.isNullable else { throw mismatch() }
            return .null
        case .bool(let b):
            guard type.base == .bool else { throw mismatch() }
            return .bool(b)
        case .number(let text):
            switch type.base {
            case .int:
                guard let i = Int(text) else {
                    throw mismatch(text.contains(where: { ".eE".contains($0) }) ? "the non-integer \(text)" : "\(text), out of range")
                }
                return .int(i)
            case .double:
                guard let d = Double(text), d.isFinite else { throw mismatch("\(text), out of range") }
                return .double(d)
            default:
                throw mismatch("the number \(text)")
            }
        case .string(let s):
            if type.base == .string { return .string(s) }
            if type.base == .double {
                switch s {
                case "Infinity": return .double(.infinity)
                case "-Infinity": return .double(-.infinity)
                case "NaN": return .double(.nan)
                default: break
                }
            }
            throw mismatch("the string \(JSONText.quoted(String(s.prefix(40))))")
        case .array(let items):
            guard type.base == .list, let element = type.element, element != .null || items.isEmpty else { throw mismatch() }
            var values: [Value] = []
            for (position, item) in items.enumerated() {
                do {
                    values.append(try value(item, of: ExpressionType(element), variable: variable))
                } catch {
                    throw mismatch("\(item.kind) at index \(position) of its list")
                }
            }
            return .list(values)
        case .object:
            throw mismatch()
        }
    }

    /// An input's data saved as a JSON object: its fields, each an int, a double, a bool or a
    /// string (a number with a fraction or exponent is a double); `nil` when a field is not.
    static func record(_ members: [(key: String, value: JSONValue)]) -> Value? {
        var fields: [Value.Record.Field] = []
        for (name, json) in members {
            let value: Value
            switch json {
            case .bool(let b): value = .bool(b)
            case .string(let s): value = .string(s)
            case .number(let text):
                if let i = Int(text) {
                    value = .int(i)
                } else if let d = Double(text), d.isFinite {
                    value = .double(d)
                } else {
                    return nil
                }
            default: return nil
            }
            fields.append(Value.Record.Field(name, value))
        }
        return .record(Value.Record(fields))
    }

    /// Text from the file as it may appear in a message: control characters escaped.
    static func escaped(_ text: String) -> String {
        String(JSONText.quoted(text).dropFirst().dropLast())
    }

    private static func short(_ fingerprint: String) -> String {
        fingerprint.count > 23 ? String(fingerprint.prefix(23)) + "..." : fingerprint
    }
}
