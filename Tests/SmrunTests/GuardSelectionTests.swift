import Testing

/// Which transition an input takes (docs/semantics.md): the first candidate in file order whose guard
/// holds; `guard-rejected` when every guard is false, `no-transition` when there is no candidate.
@Suite struct GuardSelectionTests {
    private func send(_ input: String) throws -> SmrunOutput {
        try Smrun.run([Paths.fixture("guard-selection-in-file-order.yaml"), "--send", input])
    }

    @Test(arguments: [("measure=150", "big"), ("measure=60", "medium"), ("measure=5", "small")])
    func firstTrueGuardInFileOrderWins(input: String, target: String) throws {
        let run = try send(input)
        #expect(run.text == "\(input.replacingOccurrences(of: "=", with: " ")): idle -> \(target)\n")
        #expect(run.exited(0))
    }

    @Test func everyGuardFalseIsGuardRejected() throws {
        let run = try send("measure=0")
        #expect(
            run.text
                == "measure 0: idle: rejected: guard-rejected: every guard of 'measure' from 'idle' is false: "
                + "'arg >= 100' (arg = 0); 'arg >= 10' (arg = 0); 'arg >= 50' (arg = 0); 'arg >= 1' (arg = 0)\n")
        #expect(run.exited(1))
    }

    @Test func noCandidateIsNoTransition() throws {
        let run = try send("poke")
        #expect(run.text == "poke: idle: rejected: no-transition: no transition for 'poke' from 'idle'\n")
        #expect(run.exited(1))
    }
}
