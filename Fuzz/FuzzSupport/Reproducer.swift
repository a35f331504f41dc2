#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The entry point of a fuzz target built without libFuzzer (a plain `swift build`): runs the
/// target's `LLVMFuzzerTestOneInput` body once on each file named on the command line (every
/// file of a directory), so `FuzzX crash-...` reproduces a crash under the debugger and
/// `FuzzX Fuzz/Corpus/X` replays a corpus. Built with `make fuzz`, libFuzzer provides `main`.
public enum Reproducer {
    public static func main(_ name: String, _ body: (UnsafePointer<UInt8>, Int) -> CInt) -> Never {
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty {
            printError("usage: \(name) FILE|DIRECTORY...  (runs each input once; `make fuzz` builds the fuzzer)")
            exit(2)
        }
        var count = 0
        for path in paths {
            for file in files(at: path) {
                guard let bytes = contents(of: file) else {
                    printError("\(name): cannot read \(file)")
                    exit(2)
                }
                // libFuzzer never passes a null pointer, even for an empty input.
                var buffer = bytes
                buffer.append(0)
                _ = buffer.withUnsafeBufferPointer { body($0.baseAddress!, bytes.count) }
                count += 1
            }
        }
        print("\(name): ran \(count) input\(count == 1 ? "" : "s") without a crash")
        exit(0)
    }

    private static func printError(_ message: String) {
        var line = Array((message + "\n").utf8)
        _ = line.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// `path` itself, or the regular files directly inside it when it is a directory, sorted.
    private static func files(at path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".") { continue }
            var info = stat()
            let full = path.hasSuffix("/") ? path + name : path + "/" + name
            if stat(full, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { names.append(full) }
        }
        return names.sorted()
    }

    private static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let read = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes.append(contentsOf: chunk[..<read])
            if read < chunk.count { return ferror(file) == 0 ? bytes : nil }
        }
    }
}
