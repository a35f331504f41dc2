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
    /// variables (copied from where it was last printed while the context stays the same), then
    /// `}` and a newline.
    @inline(__always)
    mutating func endJSONLine(showing context: [Value]?, version: Int) {
        if endJSONLineWithoutContext(showingContext: context != nil, version: version) { return }
        appendContext(context!, version: version)
    }

    /// Ends a JSON result line as ``endJSONLine(showing:version:)`` does when that needs no
    /// context values: none shown (`showingContext` false, or no variables), or the same as last
    /// printed (context `version`). False, with nothing appended, when the caller must append
    /// them with ``appendContext(_:version:)``. The hot path reads the runner's context only then,
    /// and so does not retain it per line.
    @inline(__always)
    mutating func endJSONLineWithoutContext(showingContext: Bool, version: Int) -> Bool {
        guard showingContext, variableKeys.count > 0 else {
            output.append("}\n" as StaticString)
            return true
        }
        if contextJSONVersion == version, let contextJSON, output.appendAgain(contextJSON) { return true }
        return false
    }

    /// `,"context":{...}}` and a newline, remembered as ``contextJSON``.
    mutating func appendContext(_ context: [Value], version: Int) {
        let mark = output.mark
        for slot in 0..<variableKeys.count {
            output.append(variableKeys[slot])
            appendJSONValue(context[slot])
        }
        output.append("}}\n" as StaticString)
        contextJSON = output.span(since: mark)
        contextJSONVersion = version
    }

    mutating func appendJSONValue(_ value: Value) {
        switch value {
        case .int(let i): output.append(decimal: i)
        case .double(let d): output.append(d.description)
        case .bool(let b): output.append(b ? "true" : "false" as StaticString)
        case .null: output.append("null" as StaticString)
        case .string(var s): s.withUTF8 { appendJSONString(UnsafeRawBufferPointer($0)) }
        case .list, .record: output.append(value.jsonText)
        }
    }

    mutating func appendJSONString(_ bytes: UnsafeRawBufferPointer) {
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
