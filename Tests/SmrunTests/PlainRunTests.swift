import Foundation
import Testing

/// `smrun MACHINE` with nothing else runs without swift-argument-parser's parse (a shorter
/// start-up), and must run exactly as `smrun run MACHINE` with every option at its default: the
/// same output, diagnostics and exit status, for every kind of machine and for machines that do
/// not load. A lone argument that is not a machine's path still goes to the parse.
@Suite struct PlainRunTests {
    @Test(arguments: [
        ("machines/self-driving-car.yaml", "machines/self-driving-car.script"),
        ("machines/media-player.yaml", "machines/media-player.script"),
        ("machines/timed-traffic-light.yaml", "machines/timed-traffic-light.script"),
        ("machines/microwave.scxml", "machines/microwave.script"),
        ("Tests/SmrunTests/Fixtures/invalid-several-problems.yaml", "machines/traffic-light.script"),
        ("Tests/SmrunTests/Fixtures/no-such-machine.yaml", "machines/traffic-light.script"),
        ("", "machines/traffic-light.script"),
    ])
    func aMachineAloneRunsAsRunWithEveryDefault(machine: String, script: String) throws {
        let input = StandardInput.file(Paths.packageRoot.appendingPathComponent(script))
        let plain = try Smrun.run([machine], input: input)
        // Any option sends the line to `run`'s own parse; these two give each its default.
        let spelledOut = try Smrun.run(["run", machine, "--format", "text", "--clock", "virtual"], input: input)
        #expect(plain.text == spelledOut.text)
        #expect(plain.errorText == spelledOut.errorText)
        #expect(plain.status == spelledOut.status && !plain.signalled)
        #expect(!plain.text.isEmpty || !plain.errorText.isEmpty, "nothing was run")
        let subcommand = try Smrun.run(["run", machine], input: input)
        #expect(subcommand.text == plain.text && subcommand.errorText == plain.errorText && subcommand.status == plain.status)
    }

    /// A lone argument that is not a machine's path is still `smrun`'s to judge: an option, or a
    /// subcommand without its own arguments.
    @Test(arguments: [["--bogus"], ["-x"], ["--"], ["run"], ["validate"], ["run", "-x"]])
    func aLoneOptionOrSubcommandIsAUsageError(arguments: [String]) throws {
        let run = try Smrun.run(arguments)
        #expect(run.exited(2), "exit status \(run.status)")
        #expect(run.stdout.isEmpty, "\(run.text)")
        #expect(run.errorText.contains("Error: "), "\(run.errorText)")
    }

    /// `smrun help` is the help, not a machine named `help`.
    @Test func helpAloneIsTheHelp() throws {
        let run = try Smrun.run(["help"])
        #expect(run.exited(0), "exit status \(run.status)")
        #expect(run.text.contains("USAGE: smrun"), "\(run.text)")
    }
}
