import ArgumentParser
import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `smrun run` reads its input lines: standard input, or the script file named after the
/// machine (`smrun m.yaml inputs.script`; `-` is standard input).
struct ScriptSource {
    let fd: Int32
    /// How messages name it: `standard input`, or the file's path.
    let name: String

    static let standardInput = ScriptSource(fd: 0, name: "standard input")

    /// Opens the script at `path` (standard input for `nil` or `-`). One that cannot be opened,
    /// or is a directory, is an error naming it (exit status 2), before the machine starts.
    static func open(_ path: String?) throws -> ScriptSource {
        guard let path, path != "-" else { return standardInput }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        var problem: String?
        if fd < 0 {
            problem = String(cString: strerror(errno))
        } else {
            var info = stat()
            if fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { problem = "it is a directory" }
        }
        if let problem {
            if fd >= 0 { close(fd) }
            FileHandleOutput.standardError("smrun: cannot read script '\(JSONText.escapingControls(path))': \(problem)\n")
            throw ExitCode(Smrun.Status.invalid)
        }
        return ScriptSource(fd: fd, name: path)
    }
}
