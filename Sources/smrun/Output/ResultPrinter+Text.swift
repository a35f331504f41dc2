@_spi(Engine) import SmrunCore
@_spi(Engine) import Statecraft

// Text results: `INPUT [ARG]: FROM -> TO [/ EFFECTS]`, rejections with their message after
// `line N: ` when the input came from script line N (a queued input's rejection too, after its
// indentation).
extension ResultPrinter {
    /// - Parameter queued: a queued input's argument.
    @inline(__always)
    mutating func printText(_ result: TransitionResult, _ runner: borrowing Runner, queued: Value?) {
        if format == .text, cellText.count > 0, !result.isStart, result.sentBy < 0,
            result.isAccepted || result.outcome == .ignored || result.rejection == .noTransition || result.rejection == .refused
        {
            let text = cellText[result.from &* inputCount &+ result.input]
            if !text.isEmpty {
                if result.isRejected { appendLineNumber() }
                output.append(inputs.text[result.input])
                appendTextArgument(result, queued: queued)
                output.append(text)
                return
            }
        }
        if result.isStart {
            output.append("start: " as StaticString)
        } else {
            if result.sentBy >= 0 && !result.isTimer { output.append("  " as StaticString) }
            if result.isRejected { appendLineNumber() }
            output.append(inputs.text[result.input])
            appendTextArgument(result, queued: queued)
            if result.sentBy >= 0 {
                output.append(" (sent by " as StaticString)
                output.append(effects.text[result.sentBy])
                appendTextTimer(result.timer)
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
            appendMessage(result, kind, runner, queued: queued)
        }
        output.append(UInt8(ascii: "\n"))
    }

    mutating func appendTextArgument(_ result: TransitionResult, queued: Value?) {
        if result.sentBy >= 0 {
            if let value = queued, value != .null {
                output.append(UInt8(ascii: " "))
                appendJSONValue(value)
            }
            return
        }
        guard !argument.isNone && !result.isTimer else { return }
        output.append(UInt8(ascii: " "))
        appendArgumentValue()
    }

    /// The external argument as a JSON value (strings quoted), which is also how text shows it.
    mutating func appendArgumentValue() {
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
    mutating func appendTextName(_ name: UnsafeRawBufferPointer) {
        if name.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            output.append(name)
        } else {
            appendJSONString(name)
        }
    }

    /// Why a result was rejected. `no-transition`, the one met in bulk, is composed from the
    /// name pools; the others are rare and built as strings (a `guard-rejected` one with the
    /// values its guards read: the runner's context, which the rejection left as it was, and
    /// the argument).
    ///
    /// - Parameter queued: a queued input's argument.
    mutating func appendMessage(_ result: TransitionResult, _ kind: RejectionKind, _ runner: borrowing Runner, queued: Value?) {
        guard kind == .noTransition, format == .text else {
            let message = runner.machine.message(
                for: result, stepLimit: stepLimit, context: runner.context,
                argument: result.sentBy >= 0 ? queued ?? .null : argument.value)
            if format == .text { output.append(message) } else { output.append(JSONText.quoted(message)) }
            return
        }
        ResultWording.writeNoTransition(
            input: inputs.text[result.input], state: states.text[result.from],
            words: { output.append($0) }, name: { output.append($0) })
    }

    /// The effects that ran: ` / a, b` in text, `,"effects":["a","b"]` in JSON.
    @inline(__always)
    mutating func appendEffects(_ result: TransitionResult, to: Int, json: Bool) {
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
}
