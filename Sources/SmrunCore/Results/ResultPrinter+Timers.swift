import Statecraft

// The fields of results that timers produce (docs/cli.md): an `after` transition's shows
// `"after":"30s"` instead of an input, every timer's the clock `"at"` (milliseconds), and a
// delayed send with an id its `"timer"`.
extension ResultPrinter {
    /// `"after":"30s"` for the result of an `after` transition's timer; `false`, printing
    /// nothing, for any other input.
    @usableFromInline package mutating func appendAfterField(input: Int) -> Bool {
        guard input >= 0, input < afterTexts.count, let text = afterTexts[input] else { return false }
        output.append("\"after\":" as StaticString)
        output.append(JSONText.quoted(text))
        return true
    }

    /// `,"at":MILLISECONDS`.
    @inlinable package mutating func appendAtField(_ time: Int) {
        output.append(",\"at\":" as StaticString)
        output.append(decimal: time)
    }

    /// `,"timer":"NAME"` for a delayed send with an id.
    @usableFromInline package mutating func appendTimerField(_ timer: Int32) {
        guard timer >= 0 else { return }
        output.append(",\"timer\":" as StaticString)
        output.append(JSONText.quoted(timerNames[Int(timer)]))
    }

    /// `, timer NAME` inside a text result's `(sent by ...)`.
    @inlinable package mutating func appendTextTimer(_ timer: Int32) {
        guard timer >= 0 else { return }
        output.append(", timer " as StaticString)
        output.append(timerNames[Int(timer)])
    }
}
