import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun`: runs, validates, draws and explores state machines written in YAML files.
@main
struct Smrun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "smrun",
        abstract: "Run, validate, draw, explore and test state machines written in YAML files, and show their state files.",
        version: SmrunVersion.current,
        subcommands: [
            RunCommand.self, ValidateCommand.self, GraphCommand.self, StatusCommand.self, ReplCommand.self, SchemaCommand.self,
            TestCommand.self, PathsCommand.self, ExportCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )

    /// Exit statuses (docs/cli.md).
    enum Status {
        static let rejected: Int32 = 1
        static let invalid: Int32 = 2
    }

    /// Parses and runs like ArgumentParser's own `main()`, except that a usage error exits
    /// with 2 (docs/cli.md) rather than 64.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandleOutput.standardError(fullMessage(for: error) + "\n")
                Glibc.exit(Status.invalid)
            }
            exit(withError: error)
        }
    }
}
