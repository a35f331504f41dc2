import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `smrun`: runs, validates, draws and explores state machines written in YAML files.
@main
struct Smrun: ParsableCommand {
    /// The program's name. Each subcommand also gives it as its `_superCommandName`: parsed as
    /// the root (``parsedWithoutRoot()``), a command that names a super command skips
    /// swift-argument-parser's check for a completion-script request (two more parses of the
    /// line, a third of a run's start-up), which only `smrun` itself answers. Help, usage and
    /// completion scripts always come from the root `smrun`, which does not read it.
    static let name = "smrun"

    static let configuration = CommandConfiguration(
        commandName: name,
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
            var command = try parsedWithoutRoot() ?? parseAsRoot()
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

    /// The command asked for, parsed as if it were the root (`smrun validate FILE` as
    /// `validate FILE`, `smrun MACHINE` as `run MACHINE`): the root's parse reflects the
    /// default subcommand's declarations three times over, and the root's own besides, for
    /// what this gives at about nine tenths of the start-up. Only a parse that succeeds and
    /// gives that command is kept: help, versions, completion scripts, `smrun help`, and every
    /// error (whose usage must name `smrun`) go to the full parse, `nil` here.
    private static func parsedWithoutRoot() -> ParsableCommand? {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let builtInFlags: Set<String> = ["-h", "-help", "--help", "--version", "--experimental-dump-help"]
        for argument in arguments
        where builtInFlags.contains(argument) || argument.hasPrefix("--generate-completion-script") || argument.hasPrefix("---") {
            return nil
        }
        var command: ParsableCommand.Type = RunCommand.self
        if let first = arguments.first, let named = configuration.subcommands.first(where: { $0._commandName == first }) {
            command = named
            arguments.removeFirst()
        } else if arguments.contains(where: { argument in argument == "help" || configuration.subcommands.contains { $0._commandName == argument } }) {
            return nil
        }
        // `smrun MACHINE` alone: the same run, parsed by a command that declares only the machine.
        if command == RunCommand.self && arguments.count == 1, let parsed = try? PlainRunCommand.parseAsRoot(arguments),
            parsed is PlainRunCommand
        {
            return parsed
        }
        do {
            let parsed = try command.parseAsRoot(arguments)
            return type(of: parsed) == command ? parsed : nil
        } catch {
            return nil
        }
    }
}
