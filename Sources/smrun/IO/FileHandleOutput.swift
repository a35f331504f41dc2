#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes text to standard error unbuffered (diagnostics are few and must not interleave).
enum FileHandleOutput {
    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
