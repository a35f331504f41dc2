import Testing

/// A command line smrun cannot run exits with status 2, says why on standard error, and prints
/// no result (docs/cli.md).
@Suite struct UsageErrorTests {
    @Test(arguments: [
        ["machines/traffic-light.yaml", "--bogus"],
        ["machines/traffic-light.yaml", "--format", "xml"],
        [],
        ["machines/traffic-light.yaml", "--max-steps", "0"],
        ["machines/traffic-light.yaml", "--max-steps", "many"],
        ["machines/traffic-light.yaml", "--send"],
    ])
    func usageErrorExitsWithTwo(arguments: [String]) throws {
        let run = try Smrun.run(arguments, input: .bytes(.init("green\n".utf8)))
        #expect(run.exited(2), "exit status \(run.status)")
        #expect(run.stdout.isEmpty, "\(run.text)")
        #expect(run.errorText.contains("Error: "), "\(run.errorText)")
    }
}
