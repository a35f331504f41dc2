import ArgumentParser

/// `smrun MACHINE` (or `smrun run MACHINE`) and nothing else, the most common run: parsed as a
/// command that declares only the machine, and run with every option of ``RunCommand`` at its
/// default. swift-argument-parser's first parse of a command looks up protocol conformances for
/// each of its declarations: 10.4M instructions for `run`'s seventeen, 5.0M for this one.
/// Any other arguments are `run`'s to parse.
struct PlainRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: RunCommand._commandName, _superCommandName: Smrun.name)

    @Argument var machine: String

    func run() throws {
        try RunSettings(machine: machine).run()
    }
}
