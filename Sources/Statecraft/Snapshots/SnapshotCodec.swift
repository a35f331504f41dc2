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
/// Context values are typed JSON values; a double that is not finite is written as the string
/// `"Infinity"`, `"-Infinity"` or `"NaN"`. Reading is strict: every member must be there with
/// its JSON type, nothing else may be, the state must be one of the machine's, and the context
/// must hold exactly the machine's variables, each a value of the variable's type.
///
/// Computing the fingerprint walks the whole machine: make one codec per machine and keep it.
public struct SnapshotCodec: Sendable {
    /// The machine it reads and writes snapshots for.
    public let machine: CompiledMachine
    /// The machine's fingerprint, computed once.
    public let fingerprint: MachineFingerprint

    /// A codec for `machine`; computes its fingerprint.
    public init(_ machine: CompiledMachine) {
        self.machine = machine
        self.fingerprint = MachineFingerprint(machine)
    }

    /// The runner's state and context as a snapshot. Take it between inputs (after
    /// ``Runner/send(_:argument:into:)`` returns, every queued input has run), never from a
    /// ``ResultSink`` in the middle of a run to completion.
    public func snapshot(of runner: borrowing Runner) -> MachineSnapshot {
        MachineSnapshot(machineName: machine.name, fingerprint: fingerprint, state: runner.state, context: runner.context)
    }

    /// A statechart runner's configuration, history records and context as a snapshot; taken
    /// between inputs, as for ``snapshot(of:)-(Runner)``.
    public func snapshot(of runner: borrowing ChartRunner) -> MachineSnapshot {
        let (configuration, histories) = runner.savedState
        return MachineSnapshot(
            machineName: machine.name, fingerprint: fingerprint, state: configuration[0], context: runner.context,
            configuration: configuration, histories: histories)
    }

    /// The snapshot document for `state` and `context`, ending with a newline.
    package func encode(state: Int, context: [Value]) -> [UInt8] {
        precondition(machine.stateNames.indices.contains(state) && context.count == machine.variableNames.count)
        return encode(context: context) { out, member in
            member(&out, "state")
            JSONText.appendQuoted(machine.stateNames[state].utf8, to: &out)
        }
    }

    /// A statechart's snapshot document: `"configuration"`, the active atomic states, and
    /// `"history"`, each history state's record, instead of `"state"`.
    package func encode(configuration: [Int], histories: [Int: [Int]], context: [Value]) -> [UInt8] {
        func names(_ states: [Int], into out: inout [UInt8]) {
            out.append(UInt8(ascii: "["))
            for (index, state) in states.enumerated() {
                if index > 0 { out.append(contentsOf: ", ".utf8) }
                JSONText.appendQuoted(machine.stateNames[state].utf8, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        return encode(context: context) { out, member in
            member(&out, "configuration")
            names(configuration, into: &out)
            member(&out, "history")
            out.append(UInt8(ascii: "{"))
            for (index, history) in histories.keys.sorted().enumerated() {
                out.append(contentsOf: (index == 0 ? "\n    " : ",\n    ").utf8)
                JSONText.appendQuoted(machine.stateNames[history].utf8, to: &out)
                out.append(contentsOf: ": ".utf8)
                names(histories[history]!, into: &out)
            }
            out.append(contentsOf: (histories.isEmpty ? "}" : "\n  }").utf8)
        }
    }

    /// The document around what says where the machine is (`stateMembers`, which writes its
    /// members with the `member` function it is given).
    private func encode(context: [Value], stateMembers: (inout [UInt8], (inout [UInt8], String) -> Void) -> Void) -> [UInt8] {
        var out: [UInt8] = []
        func startMember(_ out: inout [UInt8], _ key: String) {
            out.append(contentsOf: ",\n  ".utf8)
            JSONText.appendQuoted(key.utf8, to: &out)
            out.append(contentsOf: ": ".utf8)
        }
        func member(_ key: String, _ first: Bool = false) {
            out.append(contentsOf: first ? "{\n  ".utf8 : ",\n  ".utf8)
            JSONText.appendQuoted(key.utf8, to: &out)
            out.append(contentsOf: ": ".utf8)
        }
        func string(_ s: String) { JSONText.appendQuoted(s.utf8, to: &out) }
        member("format", true)
        string(MachineSnapshot.formatName)
        member("version")
        out.append(contentsOf: String(MachineSnapshot.formatVersion).utf8)
        member("machine")
        string(machine.name)
        member("fingerprint")
        string(fingerprint.text)
        stateMembers(&out, startMember)
        member("context")
        out.append(UInt8(ascii: "{"))
        for (slot, value) in context.enumerated() {
            out.append(contentsOf: (slot == 0 ? "\n    " : ",\n    ").utf8)
            string(machine.variableNames[slot])
            out.append(contentsOf: ": ".utf8)
            switch value {
            case .int(let i): out.append(contentsOf: String(i).utf8)
            case .double(let d) where d.isNaN: string("NaN")
            case .double(let d) where d.isInfinite: string(d < 0 ? "-Infinity" : "Infinity")
            case .double(let d): out.append(contentsOf: String(d).utf8)
            case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
            case .string(let s): string(s)
            case .null: out.append(contentsOf: "null".utf8)
            }
        }
        out.append(contentsOf: (context.isEmpty ? "}\n}\n" : "\n  }\n}\n").utf8)
        return out
    }

    /// The JSON document for `snapshot`, ending with a newline.
    public func encode(_ snapshot: MachineSnapshot) -> [UInt8] {
        guard machine.chart == nil else {
            return encode(configuration: snapshot.configuration, histories: snapshot.histories, context: snapshot.context)
        }
        return encode(state: snapshot.state, context: snapshot.context)
    }

    /// Reads a snapshot document and checks it against the machine.
    public func decode(_ bytes: [UInt8]) throws(SnapshotError) -> MachineSnapshot {
        let document: SnapshotJSON
        do {
            document = try SnapshotJSON.parse(bytes)
        } catch {
            let position = SourcePosition(offset: error.offset, in: bytes)
            throw SnapshotError(.syntax, "not valid JSON: \(error.message) at line \(position.line), column \(position.column)")
        }
        guard case .object(let members) = document else {
            throw SnapshotError(.notASnapshot, "not a Statecraft snapshot: the document is \(document.kind), not an object")
        }
        func member(_ key: String) -> SnapshotJSON? { members.first { $0.key == key }?.value }
        guard case .string(MachineSnapshot.formatName)? = member("format") else {
            throw SnapshotError(.notASnapshot, "not a Statecraft snapshot: no \"format\": \"\(MachineSnapshot.formatName)\" member")
        }
        guard case .number(let versionText)? = member("version"), let version = Int(versionText) else {
            throw SnapshotError(.invalidField, "\"version\" must be an integer, the snapshot format version")
        }
        guard version == MachineSnapshot.formatVersion else {
            throw SnapshotError(
                .unsupportedVersion,
                "snapshot format version \(version) is not supported (this version of Statecraft reads version \(MachineSnapshot.formatVersion))")
        }
        let isChart = machine.chart != nil
        let known = ["format", "version", "machine", "fingerprint", "context"] + (isChart ? ["configuration", "history"] : ["state"])
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw SnapshotError(.invalidField, "unknown member \(JSONText.quoted(unknown.key))")
        }
        func string(_ key: String) throws(SnapshotError) -> String {
            guard let value = member(key) else { throw SnapshotError(.invalidField, "missing member \"\(key)\"") }
            guard case .string(let text) = value else {
                throw SnapshotError(.invalidField, "\"\(key)\" must be a string, not \(value.kind)")
            }
            return text
        }
        let machineName = try string("machine")
        let fingerprintText = try string("fingerprint")
        let stateName = isChart ? "" : try string("state")
        guard let contextValue = member("context") else { throw SnapshotError(.invalidField, "missing member \"context\"") }
        guard case .object(let contextMembers) = contextValue else {
            throw SnapshotError(.invalidField, "\"context\" must be an object, not \(contextValue.kind)")
        }
        guard fingerprintText == fingerprint.text else {
            let theirs = Self.escaped(Self.short(fingerprintText))
            let ours = Self.short(fingerprint.text)
            let message =
                machineName == machine.name
                ? "the snapshot was saved by a different definition of machine '\(machine.name)' (fingerprint \(theirs), this definition's is \(ours))"
                : "the snapshot belongs to machine '\(Self.escaped(machineName))' (fingerprint \(theirs)), not to '\(machine.name)' (fingerprint \(ours))"
            throw SnapshotError(.differentMachine, message)
        }
        var configuration: [Int] = []
        var histories: [Int: [Int]] = [:]
        if let tree = machine.chart?.tree {
            (configuration, histories) = try decodeChartState(member("configuration"), member("history"), tree)
        }
        guard let state = isChart ? configuration.first : machine.stateNames.firstIndex(of: stateName) else {
            throw SnapshotError(
                .unknownState,
                "state \(JSONText.quoted(stateName)) is not a state of machine '\(machine.name)'"
                    + Suggestion.didYouMean(stateName, in: machine.stateNames))
        }
        var context = [Value?](repeating: nil, count: machine.variableNames.count)
        for (name, json) in contextMembers {
            guard let slot = machine.variableNames.firstIndex(of: name) else {
                throw SnapshotError(.invalidContext, "the context has \(JSONText.quoted(name)), which is not a variable of machine '\(machine.name)'")
            }
            context[slot] = try Self.value(json, of: machine.variableTypes[slot], variable: name)
        }
        if let missing = context.firstIndex(where: { $0 == nil }) {
            throw SnapshotError(.invalidContext, "the context has no value for variable '\(machine.variableNames[missing])'")
        }
        return MachineSnapshot(
            machineName: machineName, fingerprint: fingerprint, state: state, context: context.map { $0! }, configuration: configuration,
            histories: histories)
    }

    /// A statechart's `"configuration"` and `"history"`, checked: the configuration is one the
    /// machine can be in, and each history records what it could have (children of its parent
    /// for a shallow history, atomic states below it for a deep one).
    private func decodeChartState(_ configurationJSON: SnapshotJSON?, _ historyJSON: SnapshotJSON?, _ tree: StateTree) throws(SnapshotError)
        -> ([Int], [Int: [Int]])
    {
        func states(_ json: SnapshotJSON?, _ what: String) throws(SnapshotError) -> [Int] {
            guard let json else { throw SnapshotError(.invalidField, "missing member \"\(what)\"") }
            guard case .array(let items) = json else { throw SnapshotError(.invalidField, "\"\(what)\" must be an array of state names, not \(json.kind)") }
            var ids: [Int] = []
            for item in items {
                guard case .string(let name) = item else { throw SnapshotError(.invalidField, "\"\(what)\" must be an array of state names, not of \(item.kind)") }
                guard let id = machine.stateNames.firstIndex(of: name) else {
                    throw SnapshotError(
                        .unknownState,
                        "state \(JSONText.quoted(name)) is not a state of machine '\(machine.name)'" + Suggestion.didYouMean(name, in: machine.stateNames))
                }
                ids.append(id)
            }
            return ids
        }
        let configuration = try states(configurationJSON, "configuration").sorted()
        if let problem = tree.configuration(ofAtomicStates: configuration).problem {
            let names = configuration.map { machine.stateNames[$0] }.joined(separator: ", ")
            throw SnapshotError(.unknownState, "the configuration [\(names)] \(problem); machine '\(machine.name)' cannot be in it")
        }
        guard let historyJSON else { throw SnapshotError(.invalidField, "missing member \"history\"") }
        guard case .object(let members) = historyJSON else { throw SnapshotError(.invalidField, "\"history\" must be an object, not \(historyJSON.kind)") }
        var histories: [Int: [Int]] = [:]
        for (name, json) in members {
            guard let history = machine.stateNames.firstIndex(of: name), tree.kinds[history].isHistory else {
                throw SnapshotError(.unknownState, "\"history\" has \(JSONText.quoted(name)), which is not a history state of machine '\(machine.name)'")
            }
            let recorded = try states(json, "history")
            let parent = Int(tree.parents[history])
            let capacity = Int(tree.historyCapacities[Int(tree.historySlots[history])])
            let fits = recorded.allSatisfy { state in
                tree.kinds[history] == .deepHistory
                    ? tree.kinds[state] == .atomic && tree.isDescendant(state, of: parent)
                    : tree.parents[state] == Int32(parent) && !tree.kinds[state].isHistory
            }
            guard fits, recorded.count <= capacity, Set(recorded).count == recorded.count else {
                throw SnapshotError(.unknownState, "history state '\(name)' records states it cannot recall")
            }
            histories[history] = recorded
        }
        return (configuration, histories)
    }

    /// A JSON value as a value of `type`.
    private static func value(_ json: SnapshotJSON, of type: ExpressionType, variable: String) throws(SnapshotError) -> Value {
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
        case .array, .object:
            throw mismatch()
        }
    }

    /// Text from the file as it may appear in a message: control characters escaped.
    private static func escaped(_ text: String) -> String {
        String(JSONText.quoted(text).dropFirst().dropLast())
    }

    private static func short(_ fingerprint: String) -> String {
        fingerprint.count > 23 ? String(fingerprint.prefix(23)) + "..." : fingerprint
    }
}

extension Runner {
    /// Resumes from a snapshot decoded for this runner's machine, without running entry effects.
    public mutating func restore(_ snapshot: MachineSnapshot) {
        restore(state: snapshot.state, context: snapshot.context)
    }
}
