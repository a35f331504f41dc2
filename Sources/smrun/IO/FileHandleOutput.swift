#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import Statecraft

/// Writes text to standard error unbuffered (diagnostics are few and must not interleave), or
/// a few lines to standard output (what results are not: those go through an ``OutputBuffer``).
enum FileHandleOutput {
    /// Writes a line of an effect's `log` step: `log: LABEL: VALUE` (docs/semantics.md).
    @Sendable static func logLine(_ entry: EffectLogEntry) {
        standardError("log: \(entry)\n")
    }

    static func standardError(_ text: String) {
        writeText(text, to: 2)
    }

    static func standardOutput(_ text: String) {
        writeText(text, to: 1)
    }

    private static func writeText(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
