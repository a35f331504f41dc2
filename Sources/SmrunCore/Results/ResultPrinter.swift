import Statecraft

/// Prints results as they arrive, in text or JSON Lines, straight into an ``OutputBuffer``: one
/// printer for every machine, flat or statechart, on whichever runner its compiler chose.
///
/// `from` and `to` are the active atomic states (one for a flat machine): in text joined by
/// `, `, in JSON an array of names, or a string when no state of the machine has children.
/// Queued inputs, done events and eventless steps are indented in text. A statechart's JSON
/// results list the transitions taken (``CompiledMachine/listsTransitionsTaken``).
///
/// Every name, and every list of effect names a state or transition can contribute, is encoded
/// once per machine into ``BytePool``s; printing an accepted result only copies bytes.
@usableFromInline package struct ResultPrinter<Runner: MachineRunner>: ResultSink, ~Copyable {
    @usableFromInline package var output: OutputBuffer
    @usableFromInline package let format: OutputFormat
    @usableFromInline package let stepLimit: Int
    /// The script line of the external input being processed, or `nil` (start, `--send`).
    @usableFromInline package var line: Int?
    /// The external input's argument.
    @usableFromInline package var argument = ScriptArgument.absent
    /// Whether text indents a queued input's, a done event's or an eventless step's result under
    /// the line that led to it; `false` while a start that has printed no line runs to
    /// completion in `smrun repl`, until a start line is printed.
    @usableFromInline package var indentsFollowUps = true
    /// The event name the external input's results show instead of the input's, as the script
    /// wrote it: an event that an SCXML document without `<sc:input>` declarations never names,
    /// taken by the input of a name that prefixes it (``ScriptLineParser/Parsed/undeclaredEvent(input:name:argument:)``);
    /// empty otherwise.
    @usableFromInline package var eventName: [UInt8] = [] {
        didSet { showsEventName = !eventName.isEmpty }
    }
    /// Whether ``eventName`` is set: a flag beside the printer's others, read per result.
    @usableFromInline package var showsEventName = false
    /// How many results were rejections (exit status 1).
    @usableFromInline package var rejected = 0

    /// Names as text and as JSON strings.
    @usableFromInline package let states: Names
    @usableFromInline package let inputs: Names
    @usableFromInline package let effects: Names
    /// Effect lists joined for output: text `a, b`, JSON `"a","b"`.
    @usableFromInline package let exitLists: Names
    @usableFromInline package let entryLists: Names
    @usableFromInline package let transitionLists: Names
    /// Whether `from` and `to` are JSON arrays: some state has children.
    @usableFromInline package let showsArrays: Bool
    /// Whether JSON results list the transitions taken.
    @usableFromInline package let listsTransitions: Bool
    /// Per cell of the runner (``MachineRunner/cell(of:)``), what an external input's result
    /// prints after `INPUT[ ARG]` when it depends on the cell alone
    /// (``MachineRunner/forEachSettledCell(_:)``): in text, the rest of the line
    /// (`: FROM -> TO / EFFECTS`); in JSON, the fields from `input` on (an argument goes after
    /// `input`), up to the context. Empty for the other cells, and for a runner that settles none.
    @usableFromInline package var cellText: BytePool
    /// `{"line":` and the digits of ``line``, kept from one result to the next.
    @usableFromInline package var lineStart = JSONLineStart()
    /// In JSON, the end of a result line that shows the context (`,"context":{...}}` and a
    /// newline), as of the context version it shows.
    @usableFromInline package var contextText: ContextJSONText
    /// Whether the machine has context variables (a JSON result line shows them).
    @usableFromInline package let hasVariables: Bool
    @usableFromInline package let inputCount: Int
    /// Per input, the delay of the `after` transition it stands for (`30s`), else `nil`.
    @usableFromInline package let afterTexts: [String?]
    /// The ids of delayed sends, by timer id.
    @usableFromInline package let timerNames: [String]
    /// What starts the `input` field of a JSON result, after the line number.
    @inlinable package static var inputKey: StaticString { #","input":"# }

    /// One set of strings in both encodings.
    @usableFromInline package struct Names: ~Copyable {
        @usableFromInline package let text: BytePool
        @usableFromInline package let json: BytePool

        @usableFromInline package init(_ lists: [[String]]) {
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

    @usableFromInline package init(machine: CompiledMachine, format: OutputFormat, stepLimit: Int, output: consuming OutputBuffer) {
        self.output = output
        self.format = format
        self.stepLimit = stepLimit
        func names(_ ids: [Int]) -> [String] { ids.map { machine.effectNames[$0] } }
        states = Names(machine.stateNames.map { [$0] })
        let afterTexts = machine.timers?.afterTexts ?? []
        self.afterTexts = afterTexts
        timerNames = machine.timers?.timerNames ?? []
        // An `after` transition's input shows as `after 30s`.
        inputs = Names(
            machine.inputNames.indices.map { input in
                [afterTexts.isEmpty ? machine.inputNames[input] : afterTexts[input].map { "after \($0)" } ?? machine.inputNames[input]]
            })
        effects = Names(machine.effectNames.map { [$0] })
        // What comes before each context variable's value in JSON: `,"context":{"name":` for
        // the first, `,"name":` for the others.
        let variableKeys = BytePool(
            machine.variableNames.enumerated().map { slot, name in
                var bytes = Array((slot == 0 ? #","context":{"# : ",").utf8)
                JSONText.appendQuoted(name.utf8, to: &bytes)
                return bytes + [UInt8(ascii: ":")]
            })
        contextText = ContextJSONText(keys: variableKeys)
        hasVariables = !machine.variableNames.isEmpty
        exitLists = Names(machine.exitEffects.map(names))
        entryLists = Names(machine.entryEffects.map(names))
        transitionLists = Names(machine.transitions.map { names($0.effects) })
        inputCount = machine.inputCount
        showsArrays = machine.chart?.tree.parents.contains(where: { $0 >= 0 }) ?? false
        listsTransitions = machine.listsTransitionsTaken
        cellText = BytePool([])
        cellText = BytePool(renderSettledCells(machine))
    }

    /// The text of every cell whose result depends on the cell alone, rendered as any result
    /// is (``cellText``).
    @usableFromInline package mutating func renderSettledCells(_ machine: CompiledMachine) -> [[UInt8]] {
        var texts: [[UInt8]] = []
        Runner(machine, stepLimit: stepLimit, timerLimit: RunLimits.defaultTimerLimit).forEachSettledCell { cell, result, runner in
            if texts.isEmpty { texts = Array(repeating: [], count: machine.stateCount * machine.inputCount) }
            switch format {
            case .text:
                output.append(": " as StaticString)
                appendTextOutcome(result, &runner)
            case .json:
                output.append(Self.inputKey)
                output.append(inputs.json[result.input])
                output.append(UInt8(ascii: ","))
                appendJSONOutcome(result, &runner)
            }
            texts[cell] = output.takeBytes()
        }
        return texts
    }

    /// The text of ``cellText`` for `cell`, empty when there is none.
    @inline(__always)
    @inlinable package func precomputedText(cell: Int) -> UnsafeRawBufferPointer {
        cellText.count > 0 ? cellText[cell] : UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// Prints the result of a plain script line (``ScriptLineParser/parsePlain(line:)``) from its
    /// cell's precomputed text (``precomputedText(cell:)``). In text, the line is the result's
    /// text up to the `:`, after `line N: ` for a rejection; in JSON, the context comes from the
    /// runner after the result.
    @inline(__always)
    @inlinable package mutating func printPlain(line: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer, rejected: Bool) {
        if rejected {
            self.rejected += 1
            appendLineNumber()
        }
        output.append(line, text)
    }

    /// `line N: `, which starts a text rejection of an input from script line N; nothing for
    /// an input without a line (`--send`).
    @inline(never)
    @inlinable package mutating func appendLineNumber() {
        guard let line else { return }
        output.append("line " as StaticString)
        output.append(decimal: line)
        output.append(": " as StaticString)
    }

    /// ``printPlain(line:text:rejected:)`` in JSON, with the runner's context after the result:
    /// the line's start, the cell's text (with the argument after its `input` field) and the
    /// context's text, written with one check for room.
    /// The context text must be up to date (``showsContext(version:)``) for an accepted result.
    @inline(__always)
    @inlinable package mutating func printPlainJSON(_ plain: ScriptLineParser.Plain, text: UnsafeRawBufferPointer, rejected: Bool) {
        if rejected { self.rejected &+= 1 }
        let end = rejected || !hasVariables ? Self.lineEnd : contextText.bytes
        // `,"arg":` and the argument, when the line has one.
        let argumentCount = plain.kind == .none ? 0 : Self.argumentKey.utf8CodeUnitCount &+ plain.quoted.count
        // The line's start is stored as two words, 16 bytes, before the text overwrites the rest.
        guard lineStart.advance(to: line ?? 0), let target = output.room(for: 16 &+ text.count &+ argumentCount &+ end.count) else {
            return printPlainJSONInParts(plain, text: text, end: end)
        }
        target.storeBytes(of: JSONLineStart.opening.littleEndian, as: UInt64.self)
        target.storeBytes(of: lineStart.digits.littleEndian, toByteOffset: 8, as: UInt64.self)
        var written = lineStart.count
        // Texts and ends are never empty, nor is an argument.
        if plain.kind == .none {
            SmallCopy.copy(from: text.baseAddress.unsafelyUnwrapped, count: text.count, to: target + written)
            written &+= text.count
        } else {
            // The text starts with `,"input":NAME`; the argument goes after it. `,"arg":` is
            // stored as a word, whose eighth byte the argument overwrites.
            let inputField = Self.inputKey.utf8CodeUnitCount &+ inputs.json[plain.input].count
            let base = text.baseAddress.unsafelyUnwrapped
            SmallCopy.copy(from: base, count: inputField, to: target + written)
            written &+= inputField
            target.storeBytes(of: Self.argumentKeyWord.littleEndian, toByteOffset: written, as: UInt64.self)
            written &+= Self.argumentKey.utf8CodeUnitCount
            SmallCopy.copy(from: plain.quoted.baseAddress.unsafelyUnwrapped, count: plain.quoted.count, to: target + written)
            written &+= plain.quoted.count
            SmallCopy.copy(from: base + inputField, count: text.count &- inputField, to: target + written)
            written &+= text.count &- inputField
        }
        SmallCopy.copy(from: end.baseAddress.unsafelyUnwrapped, count: end.count, to: target + written)
        output.didWrite(written &+ end.count)
    }

    /// Whether a JSON result line shows no context, or the context text shows the context of
    /// version `version`: false when ``updateContextText(_:version:)`` must run first.
    @inline(__always)
    @inlinable package func showsContext(version: Int) -> Bool {
        !hasVariables || contextText.version == version
    }

    /// What goes between a JSON result's `input` field and its argument.
    @inlinable package static var argumentKey: StaticString { #","arg":"# }
    /// ``argumentKey`` as a little-endian word, with a zero eighth byte.
    @inlinable package static var argumentKeyWord: UInt64 { 0x003A_2267_7261_222C }

    /// ``printPlainJSON(_:text:rejected:)`` for a line number of more than eight digits or
    /// a line longer than the output buffer holds.
    @inline(never)
    @inlinable package mutating func printPlainJSONInParts(_ plain: ScriptLineParser.Plain, text: UnsafeRawBufferPointer, end: UnsafeRawBufferPointer) {
        let number = line ?? 0
        if lineStart.advance(to: number) {
            output.append(JSONLineStart.opening, lineStart.digits, count: lineStart.count)
        } else {
            lineStart.with(number) { output.append($0) }
        }
        if plain.kind == .none {
            output.append(text, end)
        } else {
            // The text starts with `,"input":NAME`; the argument goes after it.
            let inputField = Self.inputKey.utf8CodeUnitCount &+ inputs.json[plain.input].count
            output.append(UnsafeRawBufferPointer(rebasing: text[..<inputField]))
            output.append(Self.argumentKey)
            output.append(plain.quoted, UnsafeRawBufferPointer(rebasing: text[inputField...]))
            output.append(end)
        }
    }

    /// `}` and a newline: the end of a JSON result line that shows no context.
    @inline(__always)
    @inlinable package static var lineEnd: UnsafeRawBufferPointer {
        let end: StaticString = "}\n"
        return UnsafeRawBufferPointer(start: end.utf8Start, count: end.utf8CodeUnitCount)
    }

    @inline(__always)
    @inlinable package mutating func receive(_ result: TransitionResult, from runner: inout Runner) {
        if result.isRejected { rejected += 1 }
        switch format {
        case .text: printText(result, &runner)
        case .json: printJSON(result, &runner)
        }
    }

    /// Prints a line that never reached the machine: an unknown input name or a bad argument
    /// (`whole`, when given, is the message).
    @usableFromInline package mutating func receiveScriptRejection(
        _ kind: RejectionKind, name: UnsafeRawBufferPointer, input: Int, problem: String, runner: inout Runner,
        message whole: String? = nil
    ) {
        rejected += 1
        let result = runner.rejection(kind, input: input)
        let base = runner.message(for: result, inputName: Self.printable(name), argument: .null)
        let message = whole ?? (problem.isEmpty ? base : "\(base), \(problem)")
        switch format {
        case .text:
            appendLineNumber()
            appendTextName(name)
            output.append(": " as StaticString)
            appendStates(before: true, of: result, runner)
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
            appendStates(before: true, of: result, runner)
            output.append(",\"error\":\"" as StaticString)
            output.append(kind.rawValue)
            output.append("\",\"message\":" as StaticString)
            output.append(JSONText.quoted(message))
            output.append("}\n" as StaticString)
        }
    }

    /// The active atomic states before or after `result`'s step: text `a, b`; JSON `["a","b"]`,
    /// or `"a"` for a machine without nesting.
    @inline(__always)
    @inlinable package mutating func appendStates(before: Bool, of result: TransitionResult, _ runner: borrowing Runner) {
        let json = format == .json
        if json && showsArrays { output.append(UInt8(ascii: "[")) }
        var first = true
        runner.forEachState(before: before, of: result) { state in
            if !first { output.append(json ? "," : ", " as StaticString) }
            output.append(json ? states.json[state] : states.text[state])
            first = false
        }
        if json && showsArrays { output.append(UInt8(ascii: "]")) }
    }

    /// Why a result was rejected, as the runner words it (`timer-limit` naming the option that
    /// raises the cap).
    @usableFromInline package mutating func message(for result: TransitionResult, _ kind: RejectionKind, _ runner: borrowing Runner) -> String {
        if kind == .timerLimit { return ResultWording.timerLimit(option: "--max-timers") }
        if showsEventName(of: result) {
            let name = eventName
            return runner.message(
                for: result, inputName: name.withUnsafeBytes { Self.printable($0) }, argument: messageArgument(result, runner))
        }
        return runner.message(for: result, inputName: nil, argument: messageArgument(result, runner))
    }

    /// An event that an SCXML document without `<sc:input>` declarations never names and that no
    /// input's name prefixes: no transition takes it, so it is ignored, or rejected as
    /// `no-transition` under `sc:on-unhandled="reject"`, as an input without a transition is.
    @inlinable package mutating func receiveUnmatchedEvent(_ name: UnsafeRawBufferPointer, runner: inout Runner) {
        guard runner.machine.onUnhandled == .ignore else {
            receiveScriptRejection(.noTransition, name: name, input: -1, problem: "", runner: &runner)
            return
        }
        var result = runner.rejection(.noTransition, input: -1)
        result.outcome = .ignored
        switch format {
        case .text:
            appendTextName(name)
            output.append(": " as StaticString)
            appendTextOutcome(result, &runner)
        case .json:
            appendJSONLineStart()
            output.append("\"input\":" as StaticString)
            appendJSONString(name)
            output.append(UInt8(ascii: ","))
            appendJSONOutcome(result, &runner)
            output.append("}\n" as StaticString)
        }
    }

    /// Whether `result` is an external input's that shows ``eventName`` (an undeclared SCXML
    /// event) rather than its input's name.
    @inline(__always)
    @inlinable package func showsEventName(of result: TransitionResult) -> Bool {
        showsEventName && result.trigger == .external && !result.isTimer
    }

    /// The argument a rejection's message may show: the external input's, or a queued one's.
    @inlinable package func messageArgument(_ result: TransitionResult, _ runner: borrowing Runner) -> Value {
        result.trigger == .external && !result.isTimer ? argument.value : runner.queuedArgument(of: result) ?? .null
    }

    /// A name from the script as text safe to print: control characters escaped as JSON
    /// escapes them (`\u007f`), the style of the quoted name beside it.
    @usableFromInline package static func printable(_ name: UnsafeRawBufferPointer) -> String {
        let shown = name.count > 200 ? UnsafeRawBufferPointer(rebasing: name[..<200]) : name
        let text = JSONText.escapingControls(String(decoding: shown, as: UTF8.self))
        return name.count > 200 ? text + "..." : text
    }
}
