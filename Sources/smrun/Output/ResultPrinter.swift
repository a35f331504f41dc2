import SmrunCore
import Statecraft

/// Prints results as they arrive, in text or JSON Lines, straight into an ``OutputBuffer``.
///
/// Every name, and every list of effect names a state or transition can contribute, is encoded
/// once per machine into ``BytePool``s; printing an accepted result only copies bytes.
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

    /// Names as text and as JSON strings.
    private let states: Names
    private let inputs: Names
    private let effects: Names
    /// What comes before each context variable's value in JSON: `,"context":{"name":` for the
    /// first, `,"name":` for the others.
    private let variableKeys: BytePool
    /// Effect lists joined for output: text `a, b`, JSON `"a","b"`.
    private let exitLists: Names
    private let entryLists: Names
    private let transitionLists: Names
    /// Whether each transition has a target (and so runs exit and entry effects).
    private let transitionMoves: [Bool]
    /// Per cell `state * inputCount + input`, what an external input's result prints after
    /// `INPUT[ ARG]` when it depends on the cell alone: for a cell with one candidate, its
    /// acceptance; for a cell with none, its `no-transition` rejection or that it was ignored.
    /// In text, the rest of the line (`: FROM -> TO / EFFECTS`); in JSON, the fields from
    /// `input` on (an argument goes after `input`), up to the context. Empty when not
    /// precomputed, or for machines too large to precompute.
    private let cellText: BytePool
    /// `{"line":` and the digits of ``line``, kept from one result to the next.
    private var lineStart = JSONLineStart()
    /// In JSON, the end of the result line that last showed the context (`,"context":{...}}`
    /// and a newline), copied from the output while it is there and the context is the same,
    /// and the ``Runner/contextVersion`` it shows.
    private var contextJSON: OutputBuffer.Span?
    private var contextJSONVersion = -1
    private let inputCount: Int
    /// What starts the `input` field of a JSON result, after the line number.
    private static var inputKey: StaticString { #","input":"# }
    /// Machines with more cells than this print every result field by field.
    private static let maximumPrecomputedCells = 1 << 16

    /// One set of strings in both encodings.
    private struct Names: ~Copyable {
        let text: BytePool
        let json: BytePool

        init(_ lists: [[String]]) {
            text = BytePool(lists.map { Array($0.joined(separator: ", ").utf8) })
            json = BytePool(
                lists.map { list in
                    var bytes: [UInt8] = []
                    for (index, name) in list.enumerated() {
                        if index > 0 { bytes.append(UInt8(ascii: ",")) }
                        JSONText.appendQuoted(name.utf8, to: &bytes)
                    }
                    return bytes
                })
        }
    }

    init(machine: CompiledMachine, format: OutputFormat, stepLimit: Int, output: consuming OutputBuffer) {
        self.output = output
        self.format = format
        self.stepLimit = stepLimit
        func names(_ ids: [Int]) -> [String] { ids.map { machine.effectNames[$0] } }
        states = Names(machine.stateNames.map { [$0] })
        inputs = Names(machine.inputNames.map { [$0] })
        effects = Names(machine.effectNames.map { [$0] })
        variableKeys = BytePool(
            machine.variableNames.enumerated().map { slot, name in
                var bytes = Array((slot == 0 ? #","context":{"# : ",").utf8)
                JSONText.appendQuoted(name.utf8, to: &bytes)
                return bytes + [UInt8(ascii: ":")]
            })
        exitLists = Names(machine.exitEffects.map(names))
        entryLists = Names(machine.entryEffects.map(names))
        transitionLists = Names(machine.transitions.map { names($0.effects) })
        transitionMoves = machine.transitions.map { $0.target >= 0 }
        inputCount = machine.inputCount
        cellText = BytePool(Self.cellTexts(machine, format: format))
    }

    /// The text of ``cellText`` for every cell, or nothing for a large machine.
    private static func cellTexts(_ machine: CompiledMachine, format: OutputFormat) -> [[UInt8]] {
        guard machine.stateCount * machine.inputCount <= maximumPrecomputedCells else { return [] }
        var texts: [[UInt8]] = []
        for state in 0..<machine.stateCount {
            for input in 0..<machine.inputCount {
                // In JSON, the text starts with the input field.
                let inputField = format == .json ? "\(inputKey)" + JSONText.quoted(machine.inputNames[input]) : ""
                let candidates = machine.candidates(state: state, input: input)
                let from = machine.stateNames[state]
                if machine.isFinal[state] {
                    texts.append([])
                } else if candidates.count == 1 {
                    let transition = Int(candidates.first!)
                    let target = machine.transitions[transition].target
                    let effects = machine.effectsRun(by: transition, from: state).map { machine.effectNames[$0] }
                    let to = machine.stateNames[target >= 0 ? target : state]
                    switch format {
                    case .text:
                        texts.append(Array(": \(from) -> \(to)\(effects.isEmpty ? "" : " / " + effects.joined(separator: ", "))\n".utf8))
                    case .json:
                        let list = effects.map(JSONText.quoted).joined(separator: ",")
                        texts.append(Array(#"\#(inputField),"ok":true,"from":\#(JSONText.quoted(from)),"to":\#(JSONText.quoted(to)),"effects":[\#(list)]"#.utf8))
                    }
                } else if candidates.isEmpty && machine.onUnhandled == .reject {
                    let message = ResultWording.noTransition(input: machine.inputNames[input], state: from)
                    switch format {
                    case .text: texts.append(Array(": \(from): rejected: no-transition: \(message)\n".utf8))
                    case .json:
                        texts.append(
                            Array(
                                #"\#(inputField),"ok":false,"from":\#(JSONText.quoted(from)),"error":"no-transition","message":\#(JSONText.quoted(message))"#
                                    .utf8))
                    }
                } else if candidates.isEmpty {
                    switch format {
                    case .text: texts.append(Array(": \(from): ignored (no transition)\n".utf8))
                    case .json:
                        let state = JSONText.quoted(from)
                        texts.append(Array(#"\#(inputField),"ok":true,"ignored":true,"from":\#(state),"to":\#(state),"effects":[]"#.utf8))
                    }
                } else {
                    texts.append([])
                }
            }
        }
        return texts
    }

    /// The text of ``cellText`` for `cell`, empty when there is none.
    @inline(__always)
    func precomputedText(cell: Int) -> UnsafeRawBufferPointer {
        cellText.count > 0 ? cellText[cell] : UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// Prints the result of a plain script line (``ScriptLineParser/parsePlain(line:)``) from its
    /// cell's precomputed text (``precomputedText(cell:)``). In text, the line is the result's
    /// text up to the `:`; in JSON, the context comes from the runner after the result.
    @inline(__always)
    mutating func printPlain(line: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer, rejected: Bool) {
        if rejected { self.rejected += 1 }
        output.append(line, text)
    }

    /// ``printPlain(line:text:rejected:)`` in JSON, with the context after the result and its
    /// ``Runner/contextVersion``.
    @inline(__always)
    mutating func printPlainJSON(_ plain: ScriptLineParser.Plain, text: UnsafeRawBufferPointer, rejected: Bool, context: [Value], version: Int) {
        if rejected { self.rejected += 1 }
        if plain.kind == .none {
            lineStart.with(line ?? 0) { output.append($0, text) }
        } else {
            // The text starts with `,"input":NAME`; the argument goes after it.
            let inputField = Self.inputKey.utf8CodeUnitCount &+ inputs.json[plain.input].count
            lineStart.with(line ?? 0) { output.append($0, UnsafeRawBufferPointer(rebasing: text[..<inputField])) }
            output.append(",\"arg\":" as StaticString)
            output.append(plain.quoted)
            output.append(UnsafeRawBufferPointer(rebasing: text[inputField...]))
        }
        endJSONLine(showing: rejected ? nil : context, version: version)
    }

    @inline(__always)
    mutating func receive(_ result: TransitionResult, from runner: borrowing Runner) {
        if result.isRejected { rejected += 1 }
        switch format {
        case .text: printText(result, runner.machine, queued: result.sentBy >= 0 ? runner.queuedArgument(of: result) : nil)
        case .json:
            printJSON(result, runner, queued: result.sentBy >= 0 ? runner.queuedArgument(of: result) : nil)
        }
    }

    /// Prints a line that never reached the machine: an unknown input name or a bad argument.
    mutating func receiveScriptRejection(
        _ kind: RejectionKind, name: UnsafeRawBufferPointer, input: Int, problem: String, runner: borrowing Runner
    ) {
        rejected += 1
        let result = runner.rejection(kind, input: input)
        let base = runner.machine.message(for: result, inputName: Self.printable(name), stepLimit: stepLimit)
        let message = problem.isEmpty ? base : "\(base), \(problem)"
        switch format {
        case .text:
            appendTextName(name)
            output.append(": " as StaticString)
            output.append(states.text[result.from])
            output.append(": rejected: " as StaticString)
            output.append(kind.rawValue)
            output.append(": " as StaticString)
            output.append(message)
            output.append(UInt8(ascii: "\n"))
        case .json:
            appendJSONLineStart()
            output.append("\"input\":" as StaticString)
            appendJSONString(name)
            output.append(",\"ok\":false,\"from\":" as StaticString)
            output.append(states.json[result.from])
            output.append(",\"error\":\"" as StaticString)
            output.append(kind.rawValue)
            output.append("\",\"message\":" as StaticString)
            output.append(JSONText.quoted(message))
            output.append("}\n" as StaticString)
        }
    }

    /// A name from the script as text safe to print: control characters escaped.
    private static func printable(_ name: UnsafeRawBufferPointer) -> String {
        let shown = name.count > 200 ? UnsafeRawBufferPointer(rebasing: name[..<200]) : name
        var text = ""
        for scalar in String(decoding: shown, as: UTF8.self).unicodeScalars {
            if scalar.properties.generalCategory == .control { text += scalar.escaped(asASCII: true) } else { text.unicodeScalars.append(scalar) }
        }
        return name.count > 200 ? text + "..." : text
    }

    // MARK: Text

    @inline(__always)
    /// - Parameter queued: a queued input's argument.
    private mutating func printText(_ result: TransitionResult, _ machine: CompiledMachine, queued: Value?) {
        if format == .text, cellText.count > 0, !result.isStart, result.sentBy < 0,
            result.isAccepted || result.outcome == .ignored || result.rejection == .noTransition
        {
            let text = cellText[result.from &* inputCount &+ result.input]
            if !text.isEmpty {
                output.append(inputs.text[result.input])
                appendTextArgument(result, queued: queued)
                output.append(text)
                return
            }
        }
        if result.isStart {
            output.append("start: " as StaticString)
        } else {
            if result.sentBy >= 0 { output.append("  " as StaticString) }
            output.append(inputs.text[result.input])
            appendTextArgument(result, queued: queued)
            if result.sentBy >= 0 {
                output.append(" (sent by " as StaticString)
                output.append(effects.text[result.sentBy])
                output.append(UInt8(ascii: ")"))
            }
            output.append(": " as StaticString)
        }
        switch result.outcome {
        case .accepted(let to):
            if !result.isStart {
                output.append(states.text[result.from])
                output.append(UInt8(ascii: " "))
            }
            output.append("-> " as StaticString)
            output.append(states.text[to])
            appendEffects(result, to: to, json: false)
        case .ignored:
            output.append(states.text[result.from])
            output.append(": ignored (no transition)" as StaticString)
        case .rejected(let kind):
            output.append(states.text[result.from])
            output.append(": rejected: " as StaticString)
            output.append(kind.rawValue)
            output.append(": " as StaticString)
            appendMessage(result, kind, machine)
        }
        output.append(UInt8(ascii: "\n"))
    }

    private mutating func appendTextArgument(_ result: TransitionResult, queued: Value?) {
        if result.sentBy >= 0 {
            if let value = queued, value != .null {
                output.append(UInt8(ascii: " "))
                appendJSONValue(value)
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

    /// Why a result was rejected. `no-transition`, the one met in bulk, is composed from the
    /// name pools; the others are rare and built as strings.
    private mutating func appendMessage(_ result: TransitionResult, _ kind: RejectionKind, _ machine: CompiledMachine) {
        guard kind == .noTransition, format == .text else {
            let message = machine.message(for: result, stepLimit: stepLimit)
            if format == .text { output.append(message) } else { output.append(JSONText.quoted(message)) }
            return
        }
        ResultWording.writeNoTransition(
            input: inputs.text[result.input], state: states.text[result.from],
            words: { output.append($0) }, name: { output.append($0) })
    }

    /// The effects that ran: ` / a, b` in text, `,"effects":["a","b"]` in JSON.
    @inline(__always)
    private mutating func appendEffects(_ result: TransitionResult, to: Int, json: Bool) {
        if json { output.append(",\"effects\":[" as StaticString) }
        var first = true
        func part(_ bytes: UnsafeRawBufferPointer, _ output: inout OutputBuffer) {
            guard !bytes.isEmpty else { return }
            if first {
                if !json { output.append(" / " as StaticString) }
            } else {
                output.append(json ? "," : ", " as StaticString)
            }
            output.append(bytes)
            first = false
        }
        if result.isStart {
            part(json ? entryLists.json[to] : entryLists.text[to], &output)
        } else if result.transition >= 0 {
            let moves = transitionMoves[result.transition]
            if moves { part(json ? exitLists.json[result.from] : exitLists.text[result.from], &output) }
            part(json ? transitionLists.json[result.transition] : transitionLists.text[result.transition], &output)
            if moves { part(json ? entryLists.json[to] : entryLists.text[to], &output) }
        }
        if json { output.append(UInt8(ascii: "]")) }
    }

    // MARK: JSON

    /// `{"line":N,`, or `{` for a result without a script line.
    private mutating func appendJSONLineStart() {
        guard let line else {
            output.append(UInt8(ascii: "{"))
            return
        }
        lineStart.with(line) { output.append($0) }
        output.append(UInt8(ascii: ","))
    }

    private mutating func printJSON(_ result: TransitionResult, _ runner: borrowing Runner, queued: Value?) {
        let machine = runner.machine
        if result.isStart {
            output.append("{\"start\":true," as StaticString)
        } else {
            appendJSONLineStart()
            output.append("\"input\":" as StaticString)
            output.append(inputs.json[result.input])
            if result.sentBy >= 0 {
                if let value = queued, value != .null {
                    output.append(",\"arg\":" as StaticString)
                    appendJSONValue(value)
                }
            } else if !argument.isNone {
                output.append(",\"arg\":" as StaticString)
                appendArgumentValue()
            }
            output.append(UInt8(ascii: ","))
        }
        switch result.outcome {
        case .accepted(let to):
            output.append("\"ok\":true," as StaticString)
            appendFromTo(result, to: to)
            appendEffects(result, to: to, json: true)
        case .ignored:
            output.append("\"ok\":true,\"ignored\":true," as StaticString)
            appendFromTo(result, to: result.from)
            output.append(",\"effects\":[]" as StaticString)
        case .rejected(let kind):
            output.append("\"ok\":false,\"from\":" as StaticString)
            output.append(states.json[result.from])
            output.append(",\"error\":\"" as StaticString)
            output.append(kind.rawValue)
            output.append("\",\"message\":" as StaticString)
            appendMessage(result, kind, machine)
        }
        if result.sentBy >= 0 {
            output.append(",\"sent_by\":" as StaticString)
            output.append(effects.json[result.sentBy])
        }
        endJSONLine(showing: result.isRejected ? nil : runner.context, version: runner.contextVersion)
    }

    private mutating func appendFromTo(_ result: TransitionResult, to: Int) {
        if !result.isStart {
            output.append("\"from\":" as StaticString)
            output.append(states.json[result.from])
            output.append(UInt8(ascii: ","))
        }
        output.append("\"to\":" as StaticString)
        output.append(states.json[to])
    }

    /// Ends a JSON result line: `,"context":{...}` when `context` is given and the machine has
    /// variables (copied from where it was last printed while the context stays the same), then
    /// `}` and a newline.
    @inline(__always)
    private mutating func endJSONLine(showing context: [Value]?, version: Int) {
        guard let context, variableKeys.count > 0 else {
            output.append("}\n" as StaticString)
            return
        }
        if contextJSONVersion == version, let contextJSON, output.appendAgain(contextJSON) { return }
        appendContext(context, version: version)
    }

    /// `,"context":{...}}` and a newline, remembered as ``contextJSON``.
    private mutating func appendContext(_ context: [Value], version: Int) {
        let mark = output.mark
        for slot in 0..<variableKeys.count {
            output.append(variableKeys[slot])
            appendJSONValue(context[slot])
        }
        output.append("}}\n" as StaticString)
        contextJSON = output.span(since: mark)
        contextJSONVersion = version
    }

    private mutating func appendJSONValue(_ value: Value) {
        switch value {
        case .int(let i): output.append(decimal: i)
        case .double(let d): output.append(d.description)
        case .bool(let b): output.append(b ? "true" : "false" as StaticString)
        case .null: output.append("null" as StaticString)
        case .string(var s): s.withUTF8 { appendJSONString(UnsafeRawBufferPointer($0)) }
        }
    }

    private mutating func appendJSONString(_ bytes: UnsafeRawBufferPointer) {
        if JSONText.isPlain(bytes) {
            output.append(UInt8(ascii: "\""))
            output.append(bytes)
            output.append(UInt8(ascii: "\""))
        } else {
            var quoted: [UInt8] = []
            JSONText.appendQuoted(bytes, to: &quoted)
            output.append(quoted)
        }
    }
}
