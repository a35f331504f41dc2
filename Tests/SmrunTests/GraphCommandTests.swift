import Foundation
import Testing

/// `smrun graph MACHINE --format dot|mermaid` (docs/cli.md): every example machine drawn by
/// Graphviz, and Mermaid text that keeps to the grammar of `stateDiagram-v2`. (`--format svg`
/// is tested with the server's drawing, in ServeInspectorTests.)
@Suite struct GraphCommandTests {
    /// Every machine in `machines/`, as smrun is given it (it runs in the package root).
    static let machineFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Paths.machines.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") && !$0.hasSuffix(".test.yaml") }.sorted().map { "machines/\($0)" }
    }()

    @Test func theExampleMachinesAreFound() {
        #expect(Self.machineFiles.count >= 6, "\(Self.machineFiles)")
        #expect(Self.machineFiles.contains("machines/traffic-light.yaml"))
    }

    @Test(arguments: machineFiles)
    func dotOutputIsDrawnByGraphviz(_ file: String) throws {
        try expectDrawnByGraphviz(file)
    }

    @Test(arguments: machineFiles)
    func mermaidOutputKeepsToTheGrammar(_ file: String) throws {
        try expectValidMermaid(file)
    }

    /// A machine with a final state, wildcards, merged edges, and names and guards full of
    /// characters that DOT and Mermaid read as syntax.
    @Test func hostileNamesAndGuardsStayValid() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("graph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hostile.yaml")
        try Data(Self.hostileMachine.utf8).write(to: file)
        try expectDrawnByGraphviz(file.path)
        let lines = try expectValidMermaid(file.path)
        #expect(lines.contains("    s4 --> [*]"), "\(lines)")
        #expect(lines.contains("    anyState --> anyState : wait<br/>(stays)"), "\(lines)")
        #expect(lines.contains("    s0 : entry / e#59;2"), "\(lines)")
        #expect(lines.contains("    s0 : exit / e#58;1"), "\(lines)")
    }

    static let hostileMachine = #"""
        machine: 'evil"name\'
        initial: 'x:y'
        context: { mode: '""' }
        states:
          'x:y': { entry: ['e;2'], exit: ['e:1'] }
          'c;d':
          'a<b>&amp;':
          'back\slash':
          '%%x': { final: true }
        transitions:
          - input: 'go:1'
            from: 'x:y'
            to: 'c;d'
            when: 'mode == "a\"b #1; %% <i>&amp; \\N"'
            effects: ['e:1', 'e;2']
          - input: 'go:1'
            from: 'x:y'
            to: 'c;d'
            when: 'mode == "direction LR"'
          - 'end | c;d, a<b>&amp; => %%x'
          - 'jump | * => back\slash'
          - 'wait | *'
        """#

    /// A transition cannot leave a final state, so no edge leaves one: `revive | done => revived`
    /// is not drawn, and `poke | running, done` is drawn from `running` only.
    @Test func edgesFromFinalStatesAreLeftOut() throws {
        let file = "Tests/SmrunTests/Fixtures/validate/from-final-state.yaml"
        let mermaid = try Smrun.run(["graph", file, "--format", "mermaid"])
        #expect(mermaid.exited(0), "\(mermaid.errorText)")
        #expect(mermaid.lines == [
            "stateDiagram-v2", "    state \"running\" as s0", "    state \"revived\" as s1", "    state \"done\" as s2",
            "    [*] --> s0", "    s0 --> s2 : finish", "    s0 --> s0 : poke<br/>(stays)", "    s1 --> s0 : back", "    s2 --> [*]",
        ])
        let dot = try Smrun.run(["graph", file])
        #expect(dot.exited(0))
        #expect(dot.lines.filter { $0.contains("->") } == [
            "    start -> s0;", "    s0 -> s2 [label=\"finish\"];", "    s0 -> s0 [label=\"poke\", style=dashed];",
            "    s1 -> s0 [label=\"back\"];",
        ])
    }

    @Test func trafficLightInMermaid() throws {
        let run = try Smrun.run(["graph", "machines/traffic-light.yaml", "--format", "mermaid"])
        #expect(run.exited(0), "\(run.status): \(run.errorText)")
        #expect(run.errorText.isEmpty, "\(run.errorText)")
        #expect(
            run.text == """
                stateDiagram-v2
                    state "red" as s0
                    state "yellow" as s1
                    state "green" as s2
                    s0 : entry / stop
                    s1 : entry / slow
                    s2 : entry / go
                    [*] --> s0
                    s0 --> s2 : green
                    s2 --> s1 : yellow
                    s1 --> s0 : red

                """)
    }

    @Test func directionAndTheSavedStateAreDrawn() throws {
        let files = try TemporaryFiles()
        let state = files.path("light.json")
        #expect(try Smrun.run(["machines/traffic-light.yaml", "--state", state, "--send", "green"]).exited(0))
        let saved = try Data(contentsOf: URL(fileURLWithPath: state))

        let dot = try Smrun.run(["graph", "machines/traffic-light.yaml", "--direction", "TB", "--state", state])
        #expect(dot.exited(0), "\(dot.errorText)")
        #expect(dot.lines.contains("    rankdir=TB;"))
        #expect(dot.lines.contains(##"    s2 [label="green\nentry / go", style="rounded,filled,bold", fillcolor="#ffe08a"];"##), "\(dot.text)")
        #expect(dot.lines.filter { $0.contains("fillcolor") }.count == 1)
        let drawn = try Graphviz.run(["-Tsvg"], input: dot.stdout)
        #expect(drawn.status == 0 && drawn.text.contains("#ffe08a"), "\(drawn.errorText)")

        let lines = try expectValidMermaid("machines/traffic-light.yaml", options: ["--direction", "LR", "--state", state])
        #expect(lines[1] == "    direction LR")
        #expect(lines.suffix(2) == ["    classDef current fill:#ffe08a,stroke:#b58900,stroke-width:2px", "    class s2 current"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == saved, "graph only reads the state file")

        #expect(try Smrun.run(["graph", "machines/traffic-light.yaml", "--direction", "RL"]).exited(2))
    }

    @Test func aStateFileThatDoesNotFitIsRefusedOrWarnedAbout() throws {
        let files = try TemporaryFiles()
        let state = files.path("light.json")
        #expect(try Smrun.run(["machines/traffic-light.yaml", "--state", state, "--send", "green"]).exited(0))
        // Another definition with the same state: drawn, with a warning.
        let edited = try files.file(
            "light.yaml", "machine: traffic-light\ninitial: red\nstates: [red, green]\ntransitions:\n  - green | red => green\n")
        let warned = try Smrun.run(["graph", edited, "--state", state])
        #expect(warned.exited(0))
        #expect(warned.lines.contains(##"    s1 [label="green", style="rounded,filled,bold", fillcolor="#ffe08a"];"##), "\(warned.text)")
        #expect(warned.errorText.contains("warning: the snapshot was saved by a different definition of machine 'traffic-light'"), "\(warned.errorText)")
        // A state the machine does not have: refused.
        let other = try files.file("other.yaml", "machine: traffic-light\ninitial: red\nstates: [red, blue]\ntransitions:\n  - blue | red => blue\n")
        let refused = try Smrun.run(["graph", other, "--state", state])
        #expect(refused.exited(2))
        #expect(refused.stdout.isEmpty)
        #expect(refused.errorLines == [#"smrun: state file \#(state): state "green" is not a state of machine 'traffic-light'"#])
        let missing = try Smrun.run(["graph", "machines/traffic-light.yaml", "--state", files.path("none.json")])
        #expect(missing.exited(2))
        #expect(missing.errorText.contains("no such file"))
    }

    @Test func dotIsTheDefaultFormat() throws {
        let byDefault = try Smrun.run(["graph", "machines/connection.yaml"])
        let dot = try Smrun.run(["graph", "machines/connection.yaml", "--format", "dot"])
        #expect(byDefault.exited(0) && dot.exited(0), "\(byDefault.errorText)\(dot.errorText)")
        #expect(byDefault.text.hasPrefix("digraph \"connection\" {\n"), "\(byDefault.text)")
        #expect(byDefault.text == dot.text)
        // The cancel from "*" is one edge from the "any state" node, not one per state.
        #expect(byDefault.lines.filter { $0.hasPrefix("    any -> ") } == [#"    any -> s4 [label="cancel"];"#])
    }

    @Test(arguments: ["dot", "mermaid"])
    func anInvalidMachineIsRefused(_ format: String) throws {
        let file = Paths.fixture("invalid-undefined-state.yaml")
        let run = try Smrun.run(["graph", file, "--format", format])
        run.expectRefusedMachine(file)
        #expect(run.diagnostic(file, 4, 18, "undefined-state") != nil, "\(run.errorText)")
    }

    @Test func aMissingFileIsRefused() throws {
        let run = try Smrun.run(["graph", "machines/no-such-machine.yaml"])
        run.expectRefusedMachine("machines/no-such-machine.yaml")
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let run = try Smrun.run(["graph", "machines/traffic-light.yaml", "--format", "png"])
        #expect(run.exited(2), "\(run.status)")
        #expect(run.stdout.isEmpty)
        #expect(run.errorText.contains("png"), "\(run.errorText)")
    }

    // MARK: Statecharts

    /// A flat machine with entry and exit effects, descriptions and staying transitions.
    static let flatMachine = """
        machine: desk
        initial: idle
        inputs: [work, rest, ping]
        states:
          idle: { entry: [relax], description: nothing to do }
          busy: { entry: [start], exit: [stop, file] }
        transitions:
          - work | idle => busy
          - input: rest
            from: busy
            to: idle
            description: the day is over
          - ping | idle, busy
        """

    /// The same machine nested in one parent state, which has entry and exit effects and a
    /// description of its own.
    static let nestedMachine = """
        machine: desk
        initial: office
        inputs: [work, rest, ping]
        states:
          office:
            entry: [unlock]
            exit: [lock]
            description: the office hours
            states:
              idle: { entry: [relax], description: nothing to do }
              busy: { entry: [start], exit: [stop, file] }
        transitions:
          - work | idle => busy
          - input: rest
            from: busy
            to: idle
            description: the day is over
          - ping | idle, busy
        """

    /// Nesting a machine in one parent state keeps what its flat diagram shows: entry and exit
    /// effects under the states' names, descriptions as tooltips and the dashed staying
    /// transitions in DOT; effect lines, notes, descriptions and `(stays)` in Mermaid. The
    /// parent's own effects are on its cluster's label.
    @Test func nestingAMachineKeepsWhatItsFlatDiagramShows() throws {
        let files = try TemporaryFiles()
        let flat = try files.file("flat.yaml", Self.flatMachine)
        let nested = try files.file("nested.yaml", Self.nestedMachine)
        try expectDrawnByGraphviz(nested)
        // What follows a node's or an edge's id: the same in both, ids apart.
        func attributes(_ lines: [String]) -> [String] {
            lines.compactMap { line in line.firstRange(of: " [label=").map { String(line[$0.lowerBound...]) } }
                .map { $0.replacing(#/, (ltail|lhead)=cluster_s[0-9]+/#, with: "") }
        }
        let flatDot = try Smrun.run(["graph", flat])
        let nestedDot = try Smrun.run(["graph", nested])
        #expect(flatDot.exited(0) && nestedDot.exited(0), "\(flatDot.errorText)\(nestedDot.errorText)")
        let flatAttributes = attributes(flatDot.lines)
        #expect(flatAttributes.contains(#" [label="busy\nentry / start\nexit / stop, file"];"#), "\(flatDot.text)")
        #expect(flatAttributes.contains(#" [label="ping", style=dashed];"#), "\(flatDot.text)")
        #expect(Set(flatAttributes).isSubset(of: attributes(nestedDot.lines)), "\(flatDot.text)\n\(nestedDot.text)")
        #expect(nestedDot.lines.contains(#"        label="office\nentry / unlock\nexit / lock";"#), "\(nestedDot.text)")
        #expect(nestedDot.lines.contains(#"        tooltip="the office hours";"#), "\(nestedDot.text)")

        // Mermaid: description lines, edge labels and notes, ids apart.
        func statements(_ lines: [String]) -> [String] {
            lines.map { $0.trimmingCharacters(in: .whitespaces) }.compactMap { line in
                if let match = line.wholeMatch(of: #/s[0-9]+ --> s[0-9]+ : (.+)/#) { return "edge: \(match.1)" }
                if let match = line.wholeMatch(of: #/s[0-9]+ : (.+)/#) { return "line: \(match.1)" }
                if let match = line.wholeMatch(of: #/note right of s[0-9]+ : (.+)/#) { return "note: \(match.1)" }
                return nil
            }
        }
        let flatMermaid = try Smrun.run(["graph", flat, "--format", "mermaid"])
        let nestedMermaid = try expectValidMermaid(nested)
        let flatStatements = statements(flatMermaid.lines)
        #expect(flatStatements.contains("edge: ping<br/>(stays)") && flatStatements.contains("note: nothing to do"), "\(flatMermaid.text)")
        #expect(statements(nestedMermaid).sorted() == (flatStatements + ["note: the office hours"]).sorted(), "\(nestedMermaid)")
        #expect(nestedMermaid.contains(#"    state "office<br/>entry / unlock<br/>exit / lock" as s0 {"#), "\(nestedMermaid)")
    }

    /// A transition from a compound state to its own child (`goHome | session => home`,
    /// internal), or from a child to its parent, is drawn from (or to) the parent's own hollow
    /// point, not its initial one, and Graphviz draws it without a warning.
    @Test func transitionsBetweenAParentAndItsChildrenAreDrawnWithoutWarnings() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "session.yaml",
            """
            machine: session
            initial: session
            states:
              session:
                states:
                  home:
                  page:
            transitions:
              - goHome | session => home (internal)
              - open | home => page
              - leave | page => session
              - ping | session
            """)
        try expectDrawnByGraphviz(machine)
        let run = try Smrun.run(["graph", machine])
        #expect(run.exited(0), "\(run.errorText)")
        #expect(run.lines.contains(#"        o0 [shape=point, width=0.1, style=filled, fillcolor=white, label=""];"#), "\(run.text)")
        #expect(run.lines.contains(#"    o0 -> s1 [label="goHome"];"#), "\(run.text)")
        #expect(run.lines.contains(#"    s2 -> o0 [label="leave"];"#), "\(run.text)")
        #expect(run.lines.contains(#"    o0 -> o0 [label="ping", style=dashed];"#), "\(run.text)")
        #expect(!run.text.contains("ltail") && run.lines.filter { $0.contains("i0 ->") } == ["        i0 -> s1;"], "\(run.text)")
    }

    // MARK: Checks

    /// Runs `smrun graph FILE --format dot | dot -Tsvg` and checks that Graphviz drew every
    /// node and edge of the DOT text.
    private func expectDrawnByGraphviz(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try Smrun.run(["graph", file, "--format", "dot"])
        #expect(run.exited(0), "smrun exit \(run.status): \(run.errorText)", sourceLocation: sourceLocation)
        #expect(run.text.hasPrefix("digraph "), "\(run.text.prefix(500))", sourceLocation: sourceLocation)
        let dot = try Graphviz.run(["-Tsvg"], input: run.stdout)
        #expect(dot.status == 0, "dot -Tsvg exit \(dot.status): \(dot.errorText)\n\(run.text)", sourceLocation: sourceLocation)
        #expect(dot.errorText.isEmpty, "Graphviz warned: \(dot.errorText)\n\(run.text)", sourceLocation: sourceLocation)
        #expect(dot.text.contains("<svg") && dot.text.contains("</svg>"), "\(dot.text.prefix(500))", sourceLocation: sourceLocation)
        // Every `ID [...]` statement is a node and every `A -> B` an edge (the `node [` and `edge [` defaults aside).
        let statements = run.lines.map { $0.trimmingCharacters(in: .whitespaces) }
        let nodes = statements.filter { $0.wholeMatch(of: #/[a-z][a-z0-9]* \[.*\];/#) != nil && !$0.hasPrefix("node [") && !$0.hasPrefix("edge [") }
        let edges = statements.filter { $0.contains(" -> ") }
        #expect(dot.text.components(separatedBy: "class=\"node\"").count - 1 == nodes.count, sourceLocation: sourceLocation)
        #expect(dot.text.components(separatedBy: "class=\"edge\"").count - 1 == edges.count, sourceLocation: sourceLocation)
    }

    /// Runs `smrun graph FILE --format mermaid` and checks each line against the part of
    /// Mermaid's `stateDiagram-v2` grammar that smrun writes; returns the lines.
    @discardableResult
    private func expectValidMermaid(
        _ file: String, options: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let run = try Smrun.run(["graph", file, "--format", "mermaid"] + options)
        #expect(run.exited(0), "smrun exit \(run.status): \(run.errorText)", sourceLocation: sourceLocation)
        let lines = run.lines
        #expect(lines.first == "stateDiagram-v2", "\(run.text.prefix(500))", sourceLocation: sourceLocation)
        var declared: Set<Substring> = []
        var used: Set<Substring> = []
        var initialMarkers = 0
        var classes: Set<Substring> = []
        // Composite states (a statechart's compound and parallel states) open with `{`, close
        // with `}`, and separate a parallel state's regions with `--`.
        var depth = 0
        for (index, line) in lines.dropFirst().enumerated() {
            let statement = line.trimmingCharacters(in: .whitespaces)
            if index == 0, statement.wholeMatch(of: #/direction (TB|LR)/#) != nil { continue }
            #expect(
                line.firstMatch(of: #/(?i)direction\s+(tb|bt|rl|lr)/#) == nil, "reads as a direction statement: \(line)",
                sourceLocation: sourceLocation)
            if let match = statement.wholeMatch(of: #/classDef ([a-z]+) [a-z-]+:[#0-9a-z]+(,[a-z-]+:[#0-9a-z]+)*/#) {
                classes.insert(match.1)
            } else if let match = statement.wholeMatch(of: #/class ([A-Za-z_][A-Za-z0-9_]*) ([a-z]+)/#) {
                #expect(declared.contains(match.1) && classes.contains(match.2), "class of an unknown state or class: \(line)", sourceLocation: sourceLocation)
            } else if let match = statement.wholeMatch(of: #/([A-Za-z_][A-Za-z0-9_]*) : (.+)/#) {
                #expect(declared.contains(match.1), "description of an undeclared state: \(line)", sourceLocation: sourceLocation)
                #expect(Self.isPlainText(match.2), "description with syntax in it: \(line)", sourceLocation: sourceLocation)
            } else if let match = statement.wholeMatch(of: #/state "([^"]*)" as ([A-Za-z_][A-Za-z0-9_]*)( \{)?/#) {
                #expect(Self.isPlainText(match.1), "state name with syntax in it: \(line)", sourceLocation: sourceLocation)
                #expect(!declared.contains(match.2), "state id declared twice: \(line)", sourceLocation: sourceLocation)
                declared.insert(match.2)
                if match.3 != nil { depth += 1 }
            } else if statement == "}" {
                #expect(depth > 0, "'}' closes no composite state", sourceLocation: sourceLocation)
                depth -= 1
            } else if statement == "--" {
                #expect(depth > 0, "'--' outside a composite state", sourceLocation: sourceLocation)
            } else if let match = statement.wholeMatch(of: #/\[\*\] --> ([A-Za-z_][A-Za-z0-9_]*)/#) {
                used.insert(match.1)
                if depth == 0 { initialMarkers += 1 }
            } else if let match = statement.wholeMatch(of: #/([A-Za-z_][A-Za-z0-9_]*) --> \[\*\]/#) {
                used.insert(match.1)
            } else if let match = statement.wholeMatch(
                of: #/([A-Za-z_][A-Za-z0-9_]*) --> ([A-Za-z_][A-Za-z0-9_]*)(?: : (.+))?/#)
            {
                used.formUnion([match.1, match.2])
                if let label = match.3 {
                    #expect(Self.isPlainText(label), "label with syntax in it: \(line)", sourceLocation: sourceLocation)
                }
            } else {
                #expect(
                    statement.hasPrefix("note ") || statement.hasPrefix("%%"), "not a stateDiagram-v2 line: \(line)",
                    sourceLocation: sourceLocation)
            }
        }
        #expect(initialMarkers == 1, "\(run.text)", sourceLocation: sourceLocation)
        #expect(depth == 0, "a composite state is not closed", sourceLocation: sourceLocation)
        #expect(used.isSubset(of: declared), "ids used but not declared: \(used.subtracting(declared))", sourceLocation: sourceLocation)
        return lines
    }

    /// Whether `text` holds nothing Mermaid reads as syntax once its entity codes (`#58;`,
    /// `#quot;`) and line breaks (`<br/>`) are set aside.
    private static func isPlainText(_ text: Substring) -> Bool {
        let rest = text.replacing(#/#[A-Za-z0-9]+;/#, with: "").replacing("<br/>", with: "")
        return !rest.contains { ":;#\"<>%&".contains($0) }
    }
}

/// Runs Graphviz's `dot`, which `make test` installs.
private enum Graphviz {
    struct Output {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var text: String { String(decoding: stdout, as: UTF8.self) }
        var errorText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// `dot` on the `PATH`, or a failure that says how to get it: a missing Graphviz must not
    /// pass silently.
    static func executable() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("dot")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw GraphvizNotFound()
    }

    static func run(_ arguments: [String], input: Data) throws -> Output {
        let child = try Subprocess(try executable().path, arguments, directory: Paths.packageRoot.path)
        let output = Subprocess.drain(child.output)
        let errors = Subprocess.drain(child.errorOutput)
        child.feed(input)
        let termination = child.wait(timeout: .seconds(60))
        return Output(status: termination?.status ?? -1, stdout: output.wait(), stderr: errors.wait())
    }
}

/// Graphviz is not installed.
private struct GraphvizNotFound: Error, CustomStringConvertible {
    var description: String {
        "Graphviz's `dot` is not on the PATH: run `make test`, which installs graphviz (or `apt-get install graphviz`)"
    }
}
