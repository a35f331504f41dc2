import Testing

/// Names of states and inputs are strings whatever they look like (docs/machine-files.md).
@Suite struct NameTests {
    @Test func namesThatLookLikeBooleansNumbersOrNullAreNames() throws {
        let run = try Smrun.run(fixture: "names-that-look-like-values.yaml", script: "yes\n2\nnull\n", ["--format", "json"])
        let results = try run.jsonLines()
        #expect(results.map { $0["input"] as? String } == ["yes", "2", "null"])
        #expect(results.map { $0["from"] as? String } == ["off", "on", "1"])
        #expect(results.map { $0["to"] as? String } == ["on", "1", "no"])
        #expect(run.exited(0))
    }
}
