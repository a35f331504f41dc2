import Statecraft

/// A value as JSON text (`12`, `1.5`, `true`, `null`, `"text"`, `[1,2]`), handed over in pieces
/// without building a `String` (but for a list or a record), so that the printer writes it into
/// its output and the context text into its own buffer.
@usableFromInline package enum JSONValueText {
    /// Calls `body` with the pieces of `value`'s JSON text, in order.
    @inline(__always)
    @usableFromInline package static func pieces(of value: Value, _ body: (UnsafeRawBufferPointer) -> Void) {
        switch value {
        case .int(let i): DecimalDigits.with(i, body)
        case .double(let d):
            var text = d.description
            text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        case .bool(let b): body(literal(b ? "true" : "false"))
        case .null: body(literal("null"))
        case .string(var s): s.withUTF8 { stringPieces(UnsafeRawBufferPointer($0), body) }
        case .list, .record:
            var text = value.jsonText
            text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Calls `body` with the pieces of `bytes` (UTF-8) as a JSON string.
    @usableFromInline package static func stringPieces(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        if JSONText.isPlain(bytes) {
            body(literal("\""))
            body(bytes)
            body(literal("\""))
        } else {
            var quoted: [UInt8] = []
            JSONText.appendQuoted(bytes, to: &quoted)
            quoted.withUnsafeBytes(body)
        }
    }

    @inline(__always)
    @inlinable package static func literal(_ text: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }
}
