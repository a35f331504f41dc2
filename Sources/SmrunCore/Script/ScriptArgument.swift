import Statecraft

/// An external input's argument as the script gave it: the typed value and, for a string the
/// machine never reads, only the raw bytes (so no `String` is built on the hot path).
///
/// `@usableFromInline` with `@inlinable package` members, not `@_spi` public: smrun inlines
/// this on its per-line path, and Swift 6.3 inlines a `package` member into another module
/// only when its type is `@usableFromInline` (a plain `package` type cost 19% more
/// instructions per script line, callgrind; see README, Source layout).
@usableFromInline package struct ScriptArgument {
    @usableFromInline package var value: Value
    /// The argument's bytes, when `value` is a placeholder for a string that is not read.
    @usableFromInline package var raw: UnsafeRawBufferPointer?
    /// Whether `raw` is already a JSON string literal (it was written JSON-quoted).
    @usableFromInline package var rawIsJSON: Bool

    @inlinable
    package init(value: Value, raw: UnsafeRawBufferPointer?, rawIsJSON: Bool) {
        self.value = value
        self.raw = raw
        self.rawIsJSON = rawIsJSON
    }

    /// No argument.
    @inlinable package static var absent: ScriptArgument { ScriptArgument(value: .null, raw: nil, rawIsJSON: false) }

    @inlinable package var isNone: Bool { raw == nil && value == .null }
}
