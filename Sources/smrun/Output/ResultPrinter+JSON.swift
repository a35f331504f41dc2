@_spi(Engine) import SmrunCore
@_spi(Engine) import Statecraft

// JSON Lines results: one object per result, the context after accepted ones.
extension ResultPrinter {
    /// `{"line":N,`, or `{` for a result without a script line.
    mutating func appendJSONLineStart() {
        guard let line else {
            output.append(UInt8(ascii: "{"))
            return
        }
        lineStart.with(line) { output.append($0) }
        output.append(UInt8(ascii: ","))
    }

    mutating func printJSON(_ result: TransitionResult, _ runner: borrowing Runner, queued: Value?) {
        if result.isStart {
            output.append("{\"start\":true," as StaticString)
        } else {
            appendJSONLineStart()
            if result.isTimer && appendAfterField(input: result.input) {
                // An `after` transition has no input.
            } else {
                output.append("\"input\":" as StaticString)
                output.append(inputs.json[result.input])
            }
            if result.sentBy >= 0 {
                if let value = queued, value != .null {
                    output.append(",\"arg\":" as StaticString)
                    appendJSONValue(value)
                }
            } else if !argument.isNone && !result.isTimer {
                output.append(",\"arg\":" as StaticString)
                appendArgumentValue()
            }
            if result.isTimer { appendAtField(runner.time) }
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
            appendMessage(result, kind, runner, queued: queued)
        }
        if result.sentBy >= 0 {
            output.append(",\"sent_by\":" as StaticString)
            output.append(effects.json[result.sentBy])
        }
        appendTimerField(result.timer)
        endJSONLine(showing: result.isRejected ? nil : runner.context, version: runner.contextVersion)
    }

    mutating func appendFromTo(_ result: TransitionResult, to: Int) {
        if !result.isStart {
            output.append("\"from\":" as StaticString)
            output.append(states.json[result.from])
            output.append(UInt8(ascii: ","))
        }
        output.append("\"to\":" as StaticString)
        output.append(states.json[to])
    }

    /// Ends a JSON result line: `,"context":{...}` when `context` is given and the machine has
    /// variables, then `}` and a newline.
    @inline(__always)
    mutating func endJSONLine(showing context: [Value]?, version: Int) {
        if endJSONLineWithoutContext(showingContext: context != nil, version: version) { return }
        appendContext(context!, version: version)
    }

    /// Ends a JSON result line as ``endJSONLine(showing:version:)`` does when that needs no
    /// context values: none shown (`showingContext` false, or no variables), or the same as last
    /// shown (context `version`). False, with nothing appended, when the caller must append
    /// them with ``appendContext(_:version:)``. The hot path reads the runner's context only then,
    /// and so does not retain it per line.
    @inline(__always)
    mutating func endJSONLineWithoutContext(showingContext: Bool, version: Int) -> Bool {
        guard showingContext, hasVariables else {
            output.append("}\n" as StaticString)
            return true
        }
        guard contextText.version == version else { return false }
        output.append(contextText.bytes)
        return true
    }

    /// `,"context":{...}}` and a newline, for `context` of version `version`.
    mutating func appendContext(_ context: [Value], version: Int) {
        updateContextText(context, version: version)
        output.append(contextText.bytes)
    }

    /// Brings the context's text up to date with `context`, of version `version`.
    @inline(never)
    mutating func updateContextText(_ context: [Value], version: Int) {
        contextText.update(context, version: version)
    }

    /// Forgets which context version the JSON context text shows: for a new runner (`smrun
    /// repl`'s `:undo` and `:reset`), whose versions count anew.
    mutating func forgetContextVersion() {
        contextText.forgetVersion()
    }

    mutating func appendJSONValue(_ value: Value) {
        JSONValueText.pieces(of: value) { output.append($0) }
    }

    mutating func appendJSONString(_ bytes: UnsafeRawBufferPointer) {
        JSONValueText.stringPieces(bytes) { output.append($0) }
    }
}
