import Statecraft
import Testing

@testable import StatecraftYAML

/// A machine file's transitions are decoded while the file is parsed, in batches as their items
/// end, and dropped from the document: what a user sees (transitions in file order, their
/// positions, the problems in file order, anchors and tags) must be what decoding the whole
/// document gave.
struct StreamedTransitionsTests {
    func load(_ text: String) -> LoadResult {
        YAMLFile.load(bytes: Array(text.utf8), defaultName: "test")
    }

    /// `input:from->to@line:column` for each transition.
    func rows(_ result: LoadResult) -> [String] {
        (result.definition?.transitions ?? []).map { transition in
            let from: String
            switch transition.source {
            case .states(let names): from = names.map(\.name).joined(separator: ",")
            case .anyNonFinal: from = "*"
            case .anyNonFinalExcept: from = "*-"
            }
            return "\(transition.input.name):\(from)->\(transition.target?.name ?? "-")@\(transition.position)"
        }
    }

    @Test func aLongListIsDecodedInOrderWithoutBeingKeptInTheDocument() throws {
        let rows = (0..<1_000).map { "  - go | s\($0) => s\($0 + 1)" }
        let text = "initial: s0\nstates: [\((0...1_000).map { "s\($0)" }.joined(separator: ", "))]\ntransitions:\n"
            + rows.joined(separator: "\n") + "\n"
        var decoder = MachineFileDecoder()
        let document = try YAMLParser.parseDocument(Array(text.utf8), limits: .default, streamingTo: &decoder)
        // The root, its keys, the states and the empty transitions list: none of the 1,000 rows.
        #expect(document.nodes.count < 1_010, "\(document.nodes.count) nodes")
        let decoded = decoder.decode(document, defaultName: "test")
        let definition = try #require(decoded)
        #expect(decoder.diagnostics.isEmpty, "\(decoder.diagnostics)")
        #expect(definition.transitions.count == 1_000)
        #expect(definition.transitions.first?.position == SourcePosition(line: 4, column: 5))
        #expect(definition.transitions.last?.target?.name == "s1000")
        #expect(definition.transitions.last?.position == SourcePosition(line: 1_003, column: 5))
        // The same file read without streaming has every row in its document.
        let whole = try YAMLParser.parseDocument(Array(text.utf8))
        #expect(whole.nodes.count > 2_000)
    }

    @Test func fromAnItemWithAnAnchorOnTheRestStayInTheDocumentAndAliasesResolve() throws {
        let result = load(
            """
            initial: a
            context: { n: 0 }
            states: [a, b, c]
            transitions:
              - go | a => b
              - input: stop
                from: &both [a, b]
                to: c
                when: &small n < 3
              - input: back
                from: *both
                to: a
                when: *small
              - go | b => c
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(rows(result) == ["go:a->b@5:5", "stop:a,b->c@6:5", "back:a,b->a@10:5", "go:b->c@14:5"])
        #expect(result.definition?.transitions[2].guardExpression?.text == "n < 3")
        #expect(result.machine != nil)
    }

    @Test func anAnchorAfterManyItemsKeepsTheEarlierOnesDecodedAndTheLaterOnesResolved() throws {
        // Items are handed over in batches: an anchor after the first two.
        let batch = DocumentBuilder.itemsPerBatch
        let (count, anchored, alias) = (2 * batch + 500, 2 * batch + 100, 2 * batch + 300)
        let rows = (0..<count).map { index in
            switch index {
            case anchored: "  - &row go | s\(index) => s\(index + 1)"
            case alias: "  - *row"
            default: "  - go | s\(index) => s\(index + 1)"
            }
        }
        let result = load(
            "initial: s0\nstates: [\((0...count).map { "s\($0)" }.joined(separator: ", "))]\ntransitions:\n"
                + rows.joined(separator: "\n") + "\n")
        // The alias repeats the anchored row, whose position it keeps.
        let transitions = result.definition?.transitions ?? []
        #expect(transitions.count == count)
        #expect(transitions.map(\.position.line) == (0..<count).map { $0 == alias ? anchored + 4 : $0 + 4 })
        #expect(transitions[alias].target?.name == "s\(anchored + 1)")
        #expect(transitions[count - 1].target?.name == "s\(count)")
    }

    @Test func aBrokenFileAfterDroppedBatchesIsOneErrorWhereItBreaks() {
        // Past the first two batches, whose nodes are dropped: a duplicate key in a mapping
        // item names both lines, and a syntax error its own place, as in a whole document.
        let batch = DocumentBuilder.itemsPerBatch
        let rows = (0..<(2 * batch + 10)).map { "  - go | s\($0) => s\($0 + 1)" }.joined(separator: "\n")
        let head = "initial: s0\nstates: [s0]\ntransitions:\n" + rows + "\n"
        let rowsEnd = 2 * batch + 13  // the last row's line
        let duplicate = load(head + "  - input: go\n    from: s0\n    from: s1\n").diagnostics
        #expect(duplicate.map(\.code) == [.duplicateKey])
        #expect(duplicate.first?.position == SourcePosition(line: rowsEnd + 3, column: 5))
        #expect(duplicate.first?.message == "duplicate key 'from' (first at line \(rowsEnd + 2), again at line \(rowsEnd + 3))")
        let syntax = load(head + "  - [go, \n").diagnostics
        #expect(syntax.map(\.code) == [.yamlSyntax])
        #expect((syntax.first?.position?.line ?? 0) > rowsEnd)
    }

    @Test func aTagInADroppedItemIsNotReadOnTheNodesAfterIt() throws {
        // Dropping the item's nodes makes their indices free for the nodes after the list: its
        // tag (`!!str`) must not be read on them, or a `[1, 2]` would read as a list of an int
        // and a string.
        let result = load(
            """
            initial: a
            states: [a, b]
            transitions:
              - { from: a, input: !!str go, to: b }
            context: { x: [1, 2], y: [3, 4], z: [5, 6] }
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.definition?.context.map { "\($0.name.name)=\($0.initialValue)" } == ["x=[1, 2]", "y=[3, 4]", "z=[5, 6]"])
    }

    @Test func problemsInTheListAndAroundItAreReportedInFileOrder() {
        let found = load(
            """
            initial: a
            transitions:
              - go | a =>
              - input: go
                from: a
                bogus: 1
              - [go, a, b]
            states:
              a: { bogus: 1 }
            inputs: [go, go]
            """
        ).diagnostics.map { "\($0.code.rawValue)@\($0.position.map(\.description) ?? "file")" }
        #expect(found == ["invalid-row@3:12", "unknown-key@6:5", "wrong-kind@7:5", "unknown-key@9:8", "duplicate-input@10:14"], "\(found)")
    }

    @Test func transitionsBeforeTheStatesAndAFlowListLoadAndRun() throws {
        let result = load(
            """
            transitions: [go | a => b, 'stop | b => a', { input: go, from: b, to: c }]
            initial: a
            states: [a, b, c]
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(rows(result) == ["go:a->b@1:15", "stop:b->a@1:28", "go:b->c@1:45"])
        let compiled = try #require(result.machine)
        let machine = try StateMachine(compiled)
        for input in ["go", "stop", "go", "go"] { _ = machine.send(input) }
        #expect(machine.state == "c")
    }
}
