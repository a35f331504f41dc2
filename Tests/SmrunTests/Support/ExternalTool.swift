import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program the tests drive besides smrun (python3, bash, fish, zsh, tmux), found on the
/// `PATH`; a missing one fails with how to get it (`make test` installs them), never passes
/// silently.
struct ExternalTool {
    let name: String
    /// What to run to get it.
    let install: String

    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var text: String { String(decoding: stdout, as: UTF8.self) }
        var errorText: String { String(decoding: stderr, as: UTF8.self) }
        var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    static let python = ExternalTool(name: "python3", install: "make test (or: python3 -m pip install jsonschema pyyaml)")
    static let bash = ExternalTool(name: "bash", install: "apt-get install bash")
    static let fish = ExternalTool(name: "fish", install: "make test (or: apt-get install fish)")
    static let zsh = ExternalTool(name: "zsh", install: "make test (or: apt-get install zsh)")
    static let tmux = ExternalTool(name: "tmux", install: "make test (or: apt-get install tmux)")
    static let clang = ExternalTool(name: "clang", install: "the Swift toolchain (its clang)")

    /// The executable on the `PATH`.
    func executable() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ToolNotFound(name: name, install: install)
    }

    /// Runs it in the package root with `input` on standard input, to completion.
    func run(_ arguments: [String], input: String = "", timeout: Duration = .seconds(60)) throws -> Output {
        let child = try Subprocess(try executable(), arguments, directory: Paths.packageRoot.path)
        let output = Subprocess.drain(child.output)
        let errors = Subprocess.drain(child.errorOutput)
        child.feed(Data(input.utf8))
        let termination = child.wait(timeout: timeout)
        return Output(status: termination?.status ?? -1, stdout: output.wait(), stderr: errors.wait())
    }
}

/// A program the tests need is not installed.
struct ToolNotFound: Error, CustomStringConvertible {
    var name: String
    var install: String
    var description: String { "`\(name)` is not on the PATH: run \(install)" }
}
