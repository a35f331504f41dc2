import Statecraft

// JSON Lines results: one object per result, the context after accepted ones.
extension ResultPrinter {
    /// `{"line":N,`, or `{` for a result without a script line.
    @inlinable package mutating func appendJSONLineStart() {
        guard let line else {
            output.append(UInt8(ascii: "{"))
            return
        }
        lineStart.with(line) { output.append($0) }
        output.append(UInt8(ascii: ","))
    }

    @inlinable package mutating func printJSON(_ result: TransitionResult, _ runner: inout Runner) {
        switch result.trigger {
        case .start:
            output.append("{\"start\":true," as StaticString)
        case .eventless:
            appendJSONLineStart()
            output.append("\"eventless\":true," as StaticString)
        case .external, .sent, .done:
            appendJSONLineStart()
            if result.isTimer && appendAfterField(input: result.input) {
                // An `after` transition has no input.
            } else {
                output.append("\"input\":" as StaticString)
                if showsEventName(of: result) {
                    appendEventName(json: true)
                } else {
                    output.append(inputs.json[result.input])
                }
            }
            if result.isTimer {
                appendQueuedArgument(result, runner)
                appendAtField(runner.time)
            } else if result.trigger == .external {
                if !argument.isNone {
                    output.append(",\"arg\":" as StaticString)
                    appendArgumentValue()
                }
            } else {
                appendQueuedArgument(result, runner)
            }
            output.append(UInt8(ascii: ","))
        }
        appendJSONOutcome(result, &runner)
        switch result.trigger {
        case .sent(let effect):
            output.append(",\"sent_by\":" as StaticString)
            output.append(effects.json[effect])
        case .done(let state):
            output.append(",\"sent_by\":" as StaticString)
            output.append(states.json[state])
        default:
            break
        }
        appendTimerField(result.timer)
        endJSONLine(showing: result.isRejected ? nil : runner.contextStorage, version: runner.contextVersion)
    }

    /// `,"arg":VALUE` for a queued input's or a delayed send's argument, unless it is null.
    @inlinable package mutating func appendQueuedArgument(_ result: TransitionResult, _ runner: borrowing Runner) {
        guard let value = runner.queuedArgument(of: result), value != .null else { return }
        output.append(",\"arg\":" as StaticString)
        appendJSONValue(value)
    }

    /// A JSON result's fields from `ok` on, up to `sent_by`: `from`, `to`, the effects (and for a
    /// statechart the transitions taken), or the rejection with its message.
    @inlinable package mutating func appendJSONOutcome(_ result: TransitionResult, _ runner: inout Runner) {
        switch result.outcome {
        case .accepted:
            output.append("\"ok\":true," as StaticString)
            if result.trigger != .start {
                output.append("\"from\":" as StaticString)
                appendStates(before: true, of: result, runner)
                output.append(UInt8(ascii: ","))
            }
            output.append("\"to\":" as StaticString)
            appendStates(before: false, of: result, runner)
            appendEffects(result, runner, json: true)
            if listsTransitions && result.trigger != .start { appendTransitions(result, runner) }
        case .ignored:
            output.append("\"ok\":true,\"ignored\":true,\"from\":" as StaticString)
            appendStates(before: true, of: result, runner)
            output.append(",\"to\":" as StaticString)
            appendStates(before: true, of: result, runner)
            output.append(",\"effects\":[]" as StaticString)
            if listsTransitions { output.append(",\"transitions\":[]" as StaticString) }
        case .rejected(let kind):
            output.append("\"ok\":false,\"from\":" as StaticString)
            appendStates(before: true, of: result, runner)
            output.append(",\"error\":\"" as StaticString)
            output.append(kind.rawValue)
            output.append("\",\"message\":" as StaticString)
            appendMessage(result, kind, &runner)
        }
    }

    /// `,"transitions":[{"from":SOURCE,"to":[TARGETS]},...]`.
    @inlinable package mutating func appendTransitions(_ result: TransitionResult, _ runner: borrowing Runner) {
        output.append(",\"transitions\":[" as StaticString)
        var first = true
        runner.forEachTransitionTaken(of: result) { _, source, targets in
            output.append(first ? "{\"from\":" : ",{\"from\":" as StaticString)
            output.append(states.json[source])
            output.append(",\"to\":[" as StaticString)
            for (offset, target) in targets.enumerated() {
                if offset > 0 { output.append(UInt8(ascii: ",")) }
                output.append(states.json[Int(target)])
            }
            output.append("]}" as StaticString)
            first = false
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Ends a JSON result line: `,"context":{...}` when `context` is given and the machine has
    /// variables, then `}` and a newline.
    @inline(__always)
    @inlinable package mutating func endJSONLine(showing context: [Value]?, version: Int) {
        if endJSONLineWithoutContext(showingContext: context != nil, version: version) { return }
        appendContext(context!, version: version)
    }

    /// Ends a JSON result line as ``endJSONLine(showing:version:)`` does when that needs no
    /// context values: none shown (`showingContext` false, or no variables), or the same as last
    /// shown (context `version`). False, with nothing appended, when the caller must append
    /// them with ``appendContext(_:version:)``. The hot path reads the runner's context only then,
    /// and so does not retain it per line.
    @inline(__always)
    @inlinable package mutating func endJSONLineWithoutContext(showingContext: Bool, version: Int) -> Bool {
        guard showingContext, hasVariables else {
            output.append("}\n" as StaticString)
            return true
        }
        guard contextText.version == version else { return false }
        output.append(contextText.bytes)
        return true
    }

    /// `,"context":{...}}` and a newline, for `context` of version `version`.
    @inlinable package mutating func appendContext(_ context: [Value], version: Int) {
        updateContextText(context, version: version)
        output.append(contextText.bytes)
    }

    /// Brings the context's text up to date with `context`, of version `version`.
    @inline(never)
    @inlinable package mutating func updateContextText(_ context: [Value], version: Int) {
        contextText.update(context, version: version)
    }

    /// Forgets which context version the JSON context text shows: for a new runner (`smrun
    /// repl`'s `:undo` and `:reset`), whose versions count anew.
    @inlinable package mutating func forgetContextVersion() {
        contextText.forgetVersion()
    }

    @inlinable package mutating func appendJSONValue(_ value: Value) {
        JSONValueText.pieces(of: value) { output.append($0) }
    }

    @inlinable package mutating func appendJSONString(_ bytes: UnsafeRawBufferPointer) {
        JSONValueText.stringPieces(bytes) { output.append($0) }
    }
}
