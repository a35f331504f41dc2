#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files `smrun repl` reads and writes (`:save`, `:load`), with the system's reason when
/// it cannot.
enum SessionFile {
    /// Why a file could not be read.
    struct Problem: Error {
        let message: String
    }

    /// Scripts larger than this are refused by `:load`.
    static let maximumBytes = 64 << 20

    /// The whole file as text (invalid UTF-8 replaced).
    static func read(_ path: String) -> Result<String, Problem> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Problem(message: reason())) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = block.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Problem(message: reason()))
            }
            if count == 0 { break }
            bytes += block[..<count]
            if bytes.count > maximumBytes { return .failure(Problem(message: "larger than \(maximumBytes) bytes")) }
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `path` and `other` name one file: the same path, or the same existing file
    /// (device and inode) by another path.
    static func sameFile(_ path: String, _ other: String) -> Bool {
        if path == other { return true }
        var first = stat()
        var second = stat()
        guard stat(path, &first) == 0, stat(other, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Writes `text` to `path` (created or truncated); the reason when it cannot, or `nil`.
    static func write(_ text: String, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return reason() }
        let written = writeAll(text, to: fd)
        let closed = close(fd) == 0
        return written && closed ? nil : reason()
    }

    /// Writes all of `text` to `fd`; `false` on an error (in `errno`).
    @discardableResult
    static func writeAll(_ text: String, to fd: Int32) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
