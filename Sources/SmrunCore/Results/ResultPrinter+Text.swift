import Statecraft

// Text results: `INPUT [ARG]: FROM -> TO [/ EFFECTS]`, rejections with their message after
// `line N: ` when the input came from script line N (a queued input's rejection too, after its
// indentation); `(sent by ...)` after a queued input or done event; `(eventless)` for an
// eventless step.
extension ResultPrinter {
    @inline(__always)
    @inlinable package mutating func printText(_ result: TransitionResult, _ runner: inout Runner) {
        if cellText.count > 0, result.trigger == .external, !result.isTimer,
            result.isAccepted || result.outcome == .ignored || result.rejection == .noTransition || result.rejection == .refused
        {
            let text = cellText[runner.cell(before: result)]
            if !text.isEmpty {
                if result.isRejected { appendLineNumber() }
                appendTextInput(result)
                appendTextArgument(result, runner)
                output.append(text)
                return
            }
        }
        if result.isFollowUp && indentsFollowUps { output.append("  " as StaticString) }
        // A rejection starts with the script line it came from.
        if result.isRejected { appendLineNumber() }
        switch result.trigger {
        case .start:
            // The steps that follow have a line to stand under.
            indentsFollowUps = true
            output.append("start: " as StaticString)
        case .eventless:
            output.append("(eventless): " as StaticString)
        case .external, .sent, .done:
            appendTextInput(result)
            appendTextArgument(result, runner)
            switch result.trigger {
            case .sent(let effect):
                output.append(" (sent by " as StaticString)
                output.append(effects.text[effect])
                appendTextTimer(result.timer)
                output.append(UInt8(ascii: ")"))
            case .done(let state):
                output.append(" (sent by " as StaticString)
                output.append(states.text[state])
                output.append(UInt8(ascii: ")"))
            default:
                break
            }
            output.append(": " as StaticString)
        }
        appendTextOutcome(result, &runner)
    }

    /// What a text result says after its input: `FROM -> TO / EFFECTS`, `FROM: ignored (no
    /// transition)` or `FROM: rejected: KIND: MESSAGE`, and a newline.
    @inlinable package mutating func appendTextOutcome(_ result: TransitionResult, _ runner: inout Runner) {
        switch result.outcome {
        case .accepted:
            if result.trigger != .start {
                appendStates(before: true, of: result, runner)
                output.append(UInt8(ascii: " "))
            }
            output.append("-> " as StaticString)
            appendStates(before: false, of: result, runner)
            appendEffects(result, runner, json: false)
        case .ignored:
            appendStates(before: true, of: result, runner)
            output.append(": ignored (no transition)" as StaticString)
        case .rejected(let kind):
            appendStates(before: true, of: result, runner)
            output.append(": rejected: " as StaticString)
            output.append(kind.rawValue)
            output.append(": " as StaticString)
            appendMessage(result, kind, &runner)
        }
        output.append(UInt8(ascii: "\n"))
    }

    /// The argument after the input's name: the external argument, or a queued input's or a
    /// delayed send's (none when it is null).
    @inlinable package mutating func appendTextArgument(_ result: TransitionResult, _ runner: borrowing Runner) {
        if result.trigger == .external && !result.isTimer {
            guard !argument.isNone else { return }
            output.append(UInt8(ascii: " "))
            appendArgumentValue()
        } else if let value = runner.queuedArgument(of: result), value != .null {
            output.append(UInt8(ascii: " "))
            appendJSONValue(value)
        }
    }

    /// The external argument as a JSON value (strings quoted), which is also how text shows it.
    @inlinable package mutating func appendArgumentValue() {
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

    /// The name of `result`'s input: ``eventName`` for the external input it names, else the input's own.
    @inline(__always)
    @inlinable package mutating func appendTextInput(_ result: TransitionResult) {
        if showsEventName(of: result) {
            appendEventName(json: false)
        } else {
            output.append(inputs.text[result.input])
        }
    }

    /// ``eventName``, as text shows a name from the script or as a JSON string.
    @inline(never)
    @inlinable package mutating func appendEventName(json: Bool) {
        let name = eventName
        name.withUnsafeBytes { json ? appendJSONString($0) : appendTextName($0) }
    }

    /// Shows a name that is not the machine's as is when it is plain, else JSON-quoted.
    @usableFromInline package mutating func appendTextName(_ name: UnsafeRawBufferPointer) {
        if name.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) {
            output.append(name)
        } else {
            appendJSONString(name)
        }
    }

    /// Why a result was rejected. `no-transition` in text, the one met in bulk, is composed from
    /// the name pools; the others are rare and built as strings (a `guard-rejected` one with the
    /// values its guards read).
    @usableFromInline package mutating func appendMessage(_ result: TransitionResult, _ kind: RejectionKind, _ runner: inout Runner) {
        guard kind == .noTransition, format == .text, result.input >= 0 else {
            let message = message(for: result, kind, runner)
            if format == .text { output.append(message) } else { output.append(JSONText.quoted(message)) }
            return
        }
        ResultWording.writeNoTransition(
            input: true, state: false, words: { output.append($0) },
            name: { isInput in
                if isInput { appendTextInput(result) } else { appendStates(before: true, of: result, runner) }
            })
    }

    /// The effects that ran: ` / a, b` in text, `,"effects":["a","b"]` in JSON.
    @inline(__always)
    @inlinable package mutating func appendEffects(_ result: TransitionResult, _ runner: borrowing Runner, json: Bool) {
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
        runner.forEachEffectList(of: result) { list in
            switch list {
            case .exit(let state): part(json ? exitLists.json[state] : exitLists.text[state], &output)
            case .transition(let transition): part(json ? transitionLists.json[transition] : transitionLists.text[transition], &output)
            case .entry(let state): part(json ? entryLists.json[state] : entryLists.text[state], &output)
            case .effect(let effect): part(json ? effects.json[effect] : effects.text[effect], &output)
            }
        }
        if json { output.append(UInt8(ascii: "]")) }
    }
}
