import Statecraft

/// Prints results as they arrive, in text or JSON Lines, straight into an ``OutputBuffer``.
///
/// Names are encoded once per machine; printing an accepted result only copies bytes.
struct ResultPrinter: ResultSink, ~Copyable {
    var output: OutputBuffer
    let format: OutputFormat
    let stepLimit: Int
    /// The script line of the external input being processed, or `nil` (start, `--send`).
    var line: Int?
    /// The external input's argument.
    var argument = ScriptArgument.absent
    /// How many results were rejections (exit status 1).
    private(set) var rejected = 0

    private let stateText: [[UInt8]]
    private let inputText: [[UInt8]]
    private let effectText: [[UInt8]]
    private let stateJSON: [[UInt8]]
    private let inputJSON: [[UInt8]]
    private let effectJSON: [[UInt8]]
    /// `"name":` for each context variable.
    private let variableKeys: [[UInt8]]

    init(machine: CompiledMachine, format: OutputFormat, stepLimit: Int, output: consuming OutputBuffer) {
        self.output = output
        self.format = format
        self.stepLimit = stepLimit
        func json(_ name: String) -> [UInt8] {
            var bytes: [UInt8] = []
            JSONText.appendQuoted(name.utf8, to: &bytes)
            return bytes
        }
        stateText = machine.stateNames.map { Array($0.utf8) }
        inputText = machine.inputNames.map { Array($0.utf8) }
        effectText = machine.effectNames.map { Array($0.utf8) }
        stateJSON = machine.stateNames.map(json)
        inputJSON = machine.inputNames.map(json)
        effectJSON = machine.effectNames.map(json)
        variableKeys = machine.variableNames.map { json($0) + [UInt8(ascii: ":")] }
    }

    mutating func receive(_ result: TransitionResult, from runner: borrowing Runner) {
        if result.isRejected { rejected += 1 }
        switch format {
        case .text: printText(result, runner.machine)
        case .json: printJSON(result, runner.machine, context: runner.context)
        }
    }

    /// Prints a line that never reached the machine: an unknown input name or a bad argument.
    mutating func receiveScriptRejection(
        _ kind: RejectionKind, name: UnsafeRawBufferPointer, input: Int, problem: String, runner: borrowing Runner
    ) {
        rejected += 1
        let result = runner.rejection(kind, input: input)
        let base = runner.machine.message(for: result, inputName: String(decoding: name, as: UTF8.self), stepLimit: stepLimit)
        let message = problem.isEmpty ? base : "\(base), \(problem)"
        switch format {
        case .text:
            appendTextName(name)
            output.append(UInt8(ascii: ":"))
            output.append(UInt8(ascii: " "))
            output.append(stateText[result.from])
            output.append(": rejected: ")
            output.append(kind.rawValue)
            output.append(": ")
            output.append(message)
            output.append(UInt8(ascii: "\n"))
        case .json:
            output.append(UInt8(ascii: "{"))
            if let line {
                output.append("\"line\":")
                output.append(decimal: line)
                output.append(UInt8(ascii: ","))
            }
            output.append("\"input\":")
            appendJSONString(name)
            output.append(",\"ok\":false,\"from\":")
            output.append(stateJSON[result.from])
            output.append(",\"error\":\"")
            output.append(kind.rawValue)
            output.append("\",\"message\":")
            output.append(JSONText.quoted(message))
            output.append("}\n")
        }
    }

    // MARK: Text

    private mutating func printText(_ result: TransitionResult, _ machine: CompiledMachine) {
        if result.isStart {
            output.append("start: ")
        } else {
            if result.sentBy >= 0 { output.append("  ") }
            output.append(inputText[result.input])
            appendTextArgument(result)
            if result.sentBy >= 0 {
                output.append(" (sent by ")
                output.append(effectText[result.sentBy])
                output.append(UInt8(ascii: ")"))
            }
            output.append(": ")
        }
        switch result.outcome {
        case .accepted(let to):
            if !result.isStart { output.append(stateText[result.from]) }
            output.append(result.isStart ? "-> " : " -> ")
            output.append(stateText[to])
            var separator: StaticString = " / "
            for effect in effects(of: result, machine) {
                output.append(UnsafeRawBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount))
                output.append(effectText[effect])
                separator = ", "
            }
        case .ignored:
            output.append(stateText[result.from])
            output.append(": ignored (no transition)")
        case .rejected(let kind):
            output.append(stateText[result.from])
            output.append(": rejected: ")
            output.append(kind.rawValue)
            output.append(": ")
            output.append(machine.message(for: result, stepLimit: stepLimit))
        }
        output.append(UInt8(ascii: "\n"))
    }

    private mutating func appendTextArgument(_ result: TransitionResult) {
        if result.sentBy >= 0 {
            if let value = result.queuedArgument, value != .null {
                output.append(UInt8(ascii: " "))
                output.append(value.description)
            }
            return
        }
        guard !argument.isNone else { return }
        output.append(UInt8(ascii: " "))
        appendArgumentValue()
    }

    /// The external argument as a JSON value (strings quoted), which is also how text shows it.
    private mutating func appendArgumentValue() {
        if let raw = argument.raw {
            if argument.rawIsJSON {
                output.append(raw)
            } else {
                appendJSONString(raw)
            }
            return
        }
        appendJSONValue(argument.value)
    }

    /// Shows a name that is not the machine's as is when it is plain, else JSON-quoted.
    private mutating func appendTextName(_ name: UnsafeRawBufferPointer) {
        if name.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            output.append(name)
        } else {
            appendJSONString(name)
        }
    }

    // MARK: JSON

    private mutating func printJSON(_ result: TransitionResult, _ machine: CompiledMachine, context: [Value]) {
        output.append(UInt8(ascii: "{"))
        if result.isStart {
            output.append("\"start\":true,")
        } else {
            if let line {
                output.append("\"line\":")
                output.append(decimal: line)
                output.append(UInt8(ascii: ","))
            }
            output.append("\"input\":")
            output.append(inputJSON[result.input])
            if result.sentBy >= 0 {
                if let value = result.queuedArgument, value != .null {
                    output.append(",\"arg\":")
                    appendJSONValue(value)
                }
            } else if !argument.isNone {
                output.append(",\"arg\":")
                appendArgumentValue()
            }
            output.append(UInt8(ascii: ","))
        }
        switch result.outcome {
        case .accepted(let to):
            output.append("\"ok\":true,")
            appendFromTo(result, to: to)
            output.append(",\"effects\":[")
            var first = true
            for effect in effects(of: result, machine) {
                if !first { output.append(UInt8(ascii: ",")) }
                output.append(effectJSON[effect])
                first = false
            }
            output.append(UInt8(ascii: "]"))
        case .ignored:
            output.append("\"ok\":true,\"ignored\":true,")
            appendFromTo(result, to: result.from)
            output.append(",\"effects\":[]")
        case .rejected(let kind):
            output.append("\"ok\":false,\"from\":")
            output.append(stateJSON[result.from])
            output.append(",\"error\":\"")
            output.append(kind.rawValue)
            output.append("\",\"message\":")
            output.append(JSONText.quoted(machine.message(for: result, stepLimit: stepLimit)))
        }
        if result.sentBy >= 0 {
            output.append(",\"sent_by\":")
            output.append(effectJSON[result.sentBy])
        }
        if !result.isRejected && !variableKeys.isEmpty {
            appendContext(context)
        }
        output.append("}\n")
    }

    private mutating func appendFromTo(_ result: TransitionResult, to: Int) {
        if !result.isStart {
            output.append("\"from\":")
            output.append(stateJSON[result.from])
            output.append(UInt8(ascii: ","))
        }
        output.append("\"to\":")
        output.append(stateJSON[to])
    }

    private mutating func appendContext(_ context: [Value]) {
        output.append(",\"context\":{")
        for (slot, value) in context.enumerated() {
            if slot > 0 { output.append(UInt8(ascii: ",")) }
            output.append(variableKeys[slot])
            appendJSONValue(value)
        }
        output.append(UInt8(ascii: "}"))
    }

    private mutating func appendJSONValue(_ value: Value) {
        switch value {
        case .int(let i): output.append(decimal: i)
        case .double(let d): output.append(d.description)
        case .bool(let b): output.append(b ? "true" : "false")
        case .null: output.append("null")
        case .string(var s): s.withUTF8 { appendJSONString(UnsafeRawBufferPointer($0)) }
        }
    }

    private mutating func appendJSONString(_ bytes: UnsafeRawBufferPointer) {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            output.append(UInt8(ascii: "\""))
            output.append(bytes)
            output.append(UInt8(ascii: "\""))
        } else {
            var quoted: [UInt8] = []
            JSONText.appendQuoted(bytes, to: &quoted)
            output.append(quoted)
        }
    }

    private func effects(of result: TransitionResult, _ machine: CompiledMachine) -> EffectSequence {
        machine.effectsRun(by: result)
    }
}
