#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole regular file, refusing what is not one (a directory, a FIFO that could block
/// forever, a device) and what is over the size limit, without reading more than the limit.
/// Its diagnostics are about the file as a whole, so they have no position. Both formats' loaders
/// read files through it.
package enum FileReader {
    package static func contents(of path: String, maximumBytes: Int) -> Result<[UInt8], Diagnostic> {
        func fail(_ message: String, _ code: DiagnosticCode = .unreadableFile) -> Result<[UInt8], Diagnostic> {
            .failure(.error(code, message, at: nil))
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return fail("cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return fail("cannot read: \(String(cString: strerror(errno)))") }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return fail("is a directory, not a machine file")
        case S_IFIFO: return fail("is a FIFO (named pipe), not a regular file")
        default: return fail("is not a regular file")
        }
        if Int(info.st_size) > maximumBytes {
            return .failure(.limitExceeded(.fileSize, "file is \(info.st_size) bytes, over the limit of \(maximumBytes)", at: nil))
        }
        // An empty file is not read into `Array(unsafeUninitializedCapacity: 0)`, which writes the
        // count of the shared empty-array storage (a race when two threads read empty files).
        if info.st_size == 0 { return .success([]) }
        // Read into uninitialized room: zeroing a large file's worth first would cost a pass over it.
        var readError: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(info.st_size)) { buffer, filled in
            while filled < buffer.count {
                let n = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else {
                    readError = errno
                    return
                }
                if n == 0 { break }
                filled += n
            }
        }
        if readError != 0 { return fail("cannot read: \(String(cString: strerror(readError)))") }
        return .success(bytes)
    }

    /// The name a machine file gives its machine when it names none: its file name without
    /// the extension (`machines/car.yaml` -> `car`).
    package static func baseName(of path: String, extensions: [String]) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        for ext in extensions where name.hasSuffix(ext) { name = name.dropLast(ext.count) }
        return String(name)
    }
}
