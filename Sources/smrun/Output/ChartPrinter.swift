import Statecraft

/// Prints a statechart's results (``ChartResult``) in text or JSON Lines, on the name pools
/// and JSON helpers of a ``ResultPrinter``.
///
/// `from` and `to` are configurations: the active atomic states in document order, in text
/// joined by `, `, in JSON an array of names (a string when no state of the machine has
/// children). Queued inputs, done events and eventless microsteps are indented in text.
struct ChartPrinter: ChartResultSink, ~Copyable {
    var base: ResultPrinter
    /// Whether `from` and `to` are JSON arrays: any state has children.
    let showsArrays: Bool
    /// How many results were rejections (exit status 1).
    private(set) var rejected = 0

    init(machine: CompiledMachine, format: OutputFormat, stepLimit: Int) {
        base = ResultPrinter(machine: machine, format: format, stepLimit: stepLimit, output: OutputBuffer(fd: 1))
        showsArrays = machine.chart?.tree.parents.contains { $0 >= 0 } ?? false
    }

    var isJSON: Bool { base.format == .json }

    mutating func receive(_ result: ChartResult, from runner: borrowing ChartRunner) {
        if result.isRejected { rejected += 1 }
        if isJSON { printJSON(result, runner) } else { printText(result, runner) }
    }

    /// A line that never reached the machine: an unknown input name or a bad argument.
    mutating func receiveScriptRejection(_ kind: RejectionKind, name: UnsafeRawBufferPointer, input: Int, problem: String, runner: inout ChartRunner) {
        let result = runner.rejection(kind, input: input)
        rejected += 1
        let base = runner.message(for: result, inputName: ResultPrinter.printable(name))
        let message = problem.isEmpty ? base : "\(base), \(problem)"
        if isJSON {
            self.base.appendJSONLineStart()
            self.base.output.append("\"input\":" as StaticString)
            self.base.appendJSONString(name)
            self.base.output.append(",\"ok\":false,\"from\":" as StaticString)
            appendConfiguration(runner.previousConfiguration, runner)
            self.base.output.append(",\"error\":\"" as StaticString)
            self.base.output.append(kind.rawValue)
            self.base.output.append("\",\"message\":" as StaticString)
            self.base.output.append(JSONText.quoted(message))
            self.base.output.append("}\n" as StaticString)
        } else {
            self.base.appendTextName(name)
            self.base.output.append(": " as StaticString)
            appendConfiguration(runner.previousConfiguration, runner)
            self.base.output.append(": rejected: " as StaticString)
            self.base.output.append(kind.rawValue)
            self.base.output.append(": " as StaticString)
            self.base.output.append(message)
            self.base.output.append(UInt8(ascii: "\n"))
        }
    }

    // MARK: - Text

    private mutating func printText(_ result: ChartResult, _ runner: borrowing ChartRunner) {
        if result.isFollowUp { base.output.append("  " as StaticString) }
        switch result.trigger {
        case .start:
            base.output.append("start: " as StaticString)
        case .eventless:
            base.output.append("(eventless): " as StaticString)
        case .external, .sent, .done:
            base.output.append(base.inputs.text[result.input])
            appendTextArgument(result, runner)
            switch result.trigger {
            case .sent(let effect):
                base.output.append(" (sent by " as StaticString)
                base.output.append(base.effects.text[effect])
                base.output.append(UInt8(ascii: ")"))
            case .done(let state):
                base.output.append(" (sent by " as StaticString)
                base.output.append(base.states.text[state])
                base.output.append(UInt8(ascii: ")"))
            default:
                break
            }
            base.output.append(": " as StaticString)
        }
        switch result.outcome {
        case .accepted:
            if result.trigger != .start {
                appendConfiguration(runner.previousConfiguration, runner)
                base.output.append(UInt8(ascii: " "))
            }
            base.output.append("-> " as StaticString)
            appendConfiguration(runner.configuration, runner)
            var first = true
            for effect in runner.effectsRun {
                base.output.append(first ? " / " : ", " as StaticString)
                base.output.append(base.effects.text[Int(effect)])
                first = false
            }
        case .ignored:
            appendConfiguration(runner.previousConfiguration, runner)
            base.output.append(": ignored (no transition)" as StaticString)
        case .rejected(let kind):
            appendConfiguration(runner.previousConfiguration, runner)
            base.output.append(": rejected: " as StaticString)
            base.output.append(kind.rawValue)
            base.output.append(": " as StaticString)
            base.output.append(runner.message(for: result))
        }
        base.output.append(UInt8(ascii: "\n"))
    }

    private mutating func appendTextArgument(_ result: ChartResult, _ runner: borrowing ChartRunner) {
        if result.trigger == .external {
            guard !base.argument.isNone else { return }
            base.output.append(UInt8(ascii: " "))
            base.appendArgumentValue()
        } else if let value = runner.queuedArgument(of: result), value != .null {
            base.output.append(UInt8(ascii: " "))
            base.appendJSONValue(value)
        }
    }

    /// The atomic states of `configuration`: text `a, b`; JSON `["a","b"]`, or `"a"` for a
    /// machine without nesting.
    private mutating func appendConfiguration(_ configuration: [UInt64], _ runner: borrowing ChartRunner) {
        let json = isJSON
        if json && showsArrays { base.output.append(UInt8(ascii: "[")) }
        var first = true
        let tree = runner.chart.tree
        for word in configuration.indices {
            var bits = configuration[word] & tree.atomicMask[word]
            while bits != 0 {
                let state = word << 6 | bits.trailingZeroBitCount
                bits &= bits &- 1
                if !first { base.output.append(json ? "," : ", " as StaticString) }
                base.output.append(json ? base.states.json[state] : base.states.text[state])
                first = false
            }
        }
        if json && showsArrays { base.output.append(UInt8(ascii: "]")) }
    }

    // MARK: - JSON

    private mutating func printJSON(_ result: ChartResult, _ runner: borrowing ChartRunner) {
        switch result.trigger {
        case .start:
            base.output.append("{\"start\":true," as StaticString)
        case .eventless:
            base.appendJSONLineStart()
            base.output.append("\"eventless\":true," as StaticString)
        case .external, .sent, .done:
            base.appendJSONLineStart()
            base.output.append("\"input\":" as StaticString)
            base.output.append(base.inputs.json[result.input])
            if result.trigger == .external {
                if !base.argument.isNone {
                    base.output.append(",\"arg\":" as StaticString)
                    base.appendArgumentValue()
                }
            } else if let value = runner.queuedArgument(of: result), value != .null {
                base.output.append(",\"arg\":" as StaticString)
                base.appendJSONValue(value)
            }
            base.output.append(UInt8(ascii: ","))
        }
        switch result.outcome {
        case .accepted:
            base.output.append("\"ok\":true," as StaticString)
            if result.trigger != .start {
                base.output.append("\"from\":" as StaticString)
                appendConfiguration(runner.previousConfiguration, runner)
                base.output.append(UInt8(ascii: ","))
            }
            base.output.append("\"to\":" as StaticString)
            appendConfiguration(runner.configuration, runner)
            base.output.append(",\"effects\":[" as StaticString)
            for (index, effect) in runner.effectsRun.enumerated() {
                if index > 0 { base.output.append(UInt8(ascii: ",")) }
                base.output.append(base.effects.json[Int(effect)])
            }
            base.output.append(UInt8(ascii: "]"))
            if result.trigger != .start { appendTransitions(runner) }
        case .ignored:
            base.output.append("\"ok\":true,\"ignored\":true,\"from\":" as StaticString)
            appendConfiguration(runner.previousConfiguration, runner)
            base.output.append(",\"to\":" as StaticString)
            appendConfiguration(runner.previousConfiguration, runner)
            base.output.append(",\"effects\":[],\"transitions\":[]" as StaticString)
        case .rejected(let kind):
            base.output.append("\"ok\":false,\"from\":" as StaticString)
            appendConfiguration(runner.previousConfiguration, runner)
            base.output.append(",\"error\":\"" as StaticString)
            base.output.append(kind.rawValue)
            base.output.append("\",\"message\":" as StaticString)
            base.output.append(JSONText.quoted(runner.message(for: result)))
        }
        switch result.trigger {
        case .sent(let effect):
            base.output.append(",\"sent_by\":" as StaticString)
            base.output.append(base.effects.json[effect])
        case .done(let state):
            base.output.append(",\"sent_by\":" as StaticString)
            base.output.append(base.states.json[state])
        default:
            break
        }
        base.endJSONLine(showing: result.isRejected ? nil : runner.values, version: runner.contextVersion)
    }

    /// `,"transitions":[{"from":SOURCE,"to":[TARGETS]},...]`.
    private mutating func appendTransitions(_ runner: borrowing ChartRunner) {
        base.output.append(",\"transitions\":[" as StaticString)
        for (index, taken) in runner.transitionsTaken.enumerated() {
            let transition = runner.chart.transitions[Int(taken)]
            base.output.append(index > 0 ? ",{\"from\":" : "{\"from\":" as StaticString)
            base.output.append(base.states.json[Int(transition.source)])
            base.output.append(",\"to\":[" as StaticString)
            for (offset, target) in transition.targets.enumerated() {
                if offset > 0 { base.output.append(UInt8(ascii: ",")) }
                base.output.append(base.states.json[Int(target)])
            }
            base.output.append("]}" as StaticString)
        }
        base.output.append(UInt8(ascii: "]"))
    }
}
