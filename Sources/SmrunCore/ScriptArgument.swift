import Statecraft

/// An external input's argument as the script gave it: the typed value and, for a string the
/// machine never reads, only the raw bytes (so no `String` is built on the hot path).
@_spi(Engine) public struct ScriptArgument {
    @_spi(Engine) public var value: Value
    /// The argument's bytes, when `value` is a placeholder for a string that is not read.
    @_spi(Engine) public var raw: UnsafeRawBufferPointer?
    /// Whether `raw` is already a JSON string literal (it was written JSON-quoted).
    @_spi(Engine) public var rawIsJSON: Bool

    /// No argument.
    @_spi(Engine) public static var absent: ScriptArgument { ScriptArgument(value: .null, raw: nil, rawIsJSON: false) }

    @_spi(Engine) public var isNone: Bool { raw == nil && value == .null }
}
