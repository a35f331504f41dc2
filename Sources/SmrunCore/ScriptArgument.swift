import Statecraft

/// An external input's argument as the script gave it: the typed value and, for a string the
/// machine never reads, only the raw bytes (so no `String` is built on the hot path).
package struct ScriptArgument {
    package var value: Value
    /// The argument's bytes, when `value` is a placeholder for a string that is not read.
    package var raw: UnsafeRawBufferPointer?
    /// Whether `raw` is already a JSON string literal (it was written JSON-quoted).
    package var rawIsJSON: Bool

    /// No argument.
    package static var absent: ScriptArgument { ScriptArgument(value: .null, raw: nil, rawIsJSON: false) }

    package var isNone: Bool { raw == nil && value == .null }
}
