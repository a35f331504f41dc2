import ArgumentParser
import Statecraft

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
            TestCommand.self, PathsCommand.self, ExportCommand.self, ServeCommand.self,
            InstancesCommand.self,
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
            if let message = mistypedSubcommand(CommandLine.arguments.dropFirst()) {
                FileHandleOutput.standardError(fullMessage(for: ValidationError(message)) + "\n")
                Glibc.exit(Status.invalid)
            }
            if let (machine, script) = loneMachine(CommandLine.arguments.dropFirst()) {
                try RunSettings(machine: machine, script: script).run()
                return
            }
            if let paths = loneValidation(CommandLine.arguments.dropFirst()) {
                try ValidationRun(paths: paths).run()
                return
            }
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

    /// What to say when the first argument is no file but close to a subcommand's name
    /// (`smrun valdate x.yaml`), which would otherwise be taken as a machine file and give
    /// "Unexpected argument" or "no such file"; `nil` for anything else. Costs a look at a file
    /// only for a first argument that is close to a subcommand.
    static func mistypedSubcommand(_ arguments: ArraySlice<String>) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), first != "help" else { return nil }
        let names = configuration.subcommands.map { $0._commandName }
        guard !names.contains(first), let closest = Suggestion.closest(to: first, in: names + ["help"]),
            access(first, F_OK) != 0
        else { return nil }
        return "'\(JSONText.escapingControls(first))' is neither a subcommand nor a file (did you mean '\(closest)'?)"
    }

    /// The machine (and script) of `smrun MACHINE [SCRIPT]` or `smrun run MACHINE [SCRIPT]` with
    /// nothing else, the most common run, which takes every option of `run` at its default:
    /// swift-argument-parser's first parse of any command looks up protocol conformances for
    /// each of its declarations (5.0M instructions for a command that declares only the
    /// machine, some 40% of such a run's start-up), and there is nothing here for it to parse.
    /// `nil` for anything else, which the package parses: an argument that starts with `-` (an
    /// option, or `--`; but a script `-` is standard input), or a first one that names a
    /// subcommand or `help`.
    static func loneMachine(_ arguments: ArraySlice<String>) -> (machine: String, script: String?)? {
        var arguments = arguments
        if (2...3).contains(arguments.count), arguments.first == RunCommand._commandName { arguments.removeFirst() }
        guard (1...2).contains(arguments.count), let machine = arguments.first, !machine.hasPrefix("-"), machine != "help",
            !configuration.subcommands.contains(where: { $0._commandName == machine })
        else { return nil }
        let script = arguments.dropFirst().first
        if let script, script.hasPrefix("-") && script != "-" { return nil }
        return (machine, script)
    }

    /// The paths of `smrun validate PATH...` with nothing else, CI's command, which takes every
    /// option of `validate` at its default: a parse looks up a protocol conformance for each
    /// declaration, and each first lookup scans every conformance in the binary, which the
    /// server's packages made three times as many (`validate` of a small machine took 26M
    /// instructions instead of 14M). `nil` when any argument starts with `-`, or names `help`.
    static func loneValidation(_ arguments: ArraySlice<String>) -> [String]? {
        guard arguments.first == ValidateCommand._commandName, arguments.count >= 2 else { return nil }
        let paths = Array(arguments.dropFirst())
        guard !paths.contains(where: { $0.hasPrefix("-") || $0 == "help" }) else { return nil }
        return paths
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
        do {
            let parsed = try command.parseAsRoot(arguments)
            return type(of: parsed) == command ? parsed : nil
        } catch {
            return nil
        }
    }
}
