import Foundation
import Testing

/// What a browser inspector reads from `smrun serve` (docs/serving.md), end to end with the real
/// binary on a real SQLite file: each history entry's instance after it and the transitions it
/// took, the inputs an instance may take now, a definition's states and transitions, and its
/// diagram drawn by the real Graphviz with hooks a page finds its parts by.
@Suite(.servedEndToEnd) struct ServeInspectorTests {
    static let ticket = Paths.fixture("serve/ticket.yaml")
    static let machines = [ServedMachines.player, ServedMachines.tally, ServedMachines.alarm, ticket]

    // MARK: - History entries

    @Test func aFlatMachinesEntriesShowTheStateAfterThemAndTheTransitionsTaken() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, machines: Self.machines)
        try server.create("tally", key: "t")
        try server.send("tally", "t", "add", arg: "5")
        try server.send("tally", "t", "reopen")
        try server.send("tally", "t", "close")
        let entries = try server.history("tally", "t")
        try #require(entries.count == 4)
        #expect(entries.map { $0["status"] as? String } == ["running", "running", "running", "running"])
        #expect(entries.map { $0["state"] as? String } == ["open", "open", "open", "closed"])
        #expect(entries.map { Self.numbers($0["transitions"]) } == [[], [0], [], [1]])
        #expect(entries.map { JSONValue.int(($0["context"] as? [String: Any])?["total"]) } == [0, 5, 5, 5])
        // The rejection is an entry that took no transition and changed nothing.
        #expect(((entries[2]["results"] as? [[String: Any]])?.first?["error"] as? String) == "no-transition")
        // A flat machine's entries name one state.
        #expect(entries.allSatisfy { $0["configuration"] == nil && $0["history_states"] == nil })

        // The events feeds show the same members.
        let feed = try server.events("/machines/tally/instances/t/events", lastEventID: "1")
        let event = try #require(try feed.next(timeout: .seconds(10)))
        let fed = try event.object()
        #expect(fed["state"] as? String == "open" && Self.numbers(fed["transitions"]) == [0], "\(event.data)")
        #expect(fed["status"] as? String == "running")
    }

    @Test func aStatechartsEntriesShowItsConfigurationHistoryStatesAndTransitions() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, machines: Self.machines)
        try server.create("media-player", key: "p")
        try server.send("media-player", "p", "play")
        try server.send("media-player", "p", "mute")
        try server.send("media-player", "p", "stop")
        try server.send("media-player", "p", "unmute")
        let entries = try server.history("media-player", "p")
        try #require(entries.count == 5)
        #expect(entries.map { $0["configuration"] as? [String] } == [["stopped"], ["sound", "hd"], ["muted", "hd"], ["stopped"], ["stopped"]])
        // play is transition 0, mute 3, stop 7 (in file order); unmute from 'stopped' takes none.
        #expect(entries.map { Self.numbers($0["transitions"]) } == [[], [0], [3], [7], []])
        #expect(entries.allSatisfy { $0["state"] == nil && $0["status"] as? String == "running" })
        let recorded = try #require(entries[3]["history_states"] as? [String: [String]])
        #expect(recorded["lastSession"] == ["muted", "hd"], "\(recorded)")
        #expect((entries[1]["history_states"] as? [String: [String]])?.isEmpty == true)
        #expect(entries[3]["context"] as? [String: Any] != nil)
    }

    @Test func aTimersEntryListsTheTransitionsItsRunTook() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, machines: Self.machines)
        try server.create("alarm", key: "a")
        try server.send("alarm", "a", "arm")
        var entries: [[String: Any]] = []
        for _ in 0..<200 where entries.count < 3 {
            Thread.sleep(forTimeInterval: 0.05)
            entries = try server.history("alarm", "a")
        }
        try #require(entries.count == 3, "the alarm did not ring: \(entries)")
        #expect(entries[2]["timer"] as? [String: Any] != nil)
        // The `after: 1s` transition (4), then `rang` (3), which its effect sent.
        #expect(Self.numbers(entries[2]["transitions"]) == [4, 3], "\(entries[2])")
        #expect(entries[2]["state"] as? String == "ringing")
        #expect(JSONValue.int((entries[2]["context"] as? [String: Any])?["rings"]) == 1)
        #expect(entries[1]["state"] as? String == "armed" && Self.numbers(entries[1]["transitions"]) == [0])
    }

    /// Entries written by an smrun from before the store kept the state after each entry show
    /// those members as null; the store is migrated when the server opens it.
    @Test func entriesWrittenBeforeTheMigrationShowTheirStateAfterAsNull() throws {
        let files = try TemporaryFiles()
        let first = try ServerProcess.start(files, machines: Self.machines)
        try first.create("tally", key: "old")
        #expect(first.stop()?.status == 0)
        // The store as an older smrun left it: no `state_after` column, no record of migration 2.
        let sqlite = try ExternalTool(name: "sqlite3", install: "apt-get install sqlite3").run([
            first.store, "ALTER TABLE history DROP COLUMN state_after; DELETE FROM grdb_migrations WHERE identifier LIKE '2:%'",
        ])
        try #require(sqlite.status == 0, "\(sqlite.errorText)")
        let server = try first.restarted()
        try server.send("tally", "old", "add", arg: "2")
        let entries = try server.history("tally", "old")
        try #require(entries.count == 2)
        for member in ["status", "state", "configuration", "history_states", "context", "transitions"] {
            #expect(entries[0][member] is NSNull, "\(member): \(entries[0])")
        }
        #expect(entries[1]["state"] as? String == "open" && Self.numbers(entries[1]["transitions"]) == [0], "\(entries[1])")
    }

    // MARK: - Inputs

    @Test func theInputsSayWhichHaveATransitionAndWhyTheOthersHaveNone() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, machines: Self.machines)
        try server.create("tally", key: "t")
        let flat = try server.get("/machines/tally/instances/t/inputs")
        #expect(flat.status == 200 && flat.header("ETag") == #""1""#, "\(flat.text)")
        #expect(
            try Self.inputs(flat) == [
                Input(name: "add", arg: "int", enabled: true, reason: nil),
                Input(name: "close", arg: nil, enabled: true, reason: nil),
                Input(name: "reopen", arg: nil, enabled: false, reason: "no transition for 'reopen' leaves 'open'"),
            ])

        // A statechart: `stop` leaves 'active', an ancestor of the active states.
        try server.create("media-player", key: "p")
        try server.send("media-player", "p", "play")
        let chart = try Self.inputs(try server.get("/machines/media-player/instances/p/inputs"))
        // The inputs `GET /machines` lists, in its order.
        #expect(chart.map(\.name) == (try Self.listedInputs("media-player", server)), "\(chart)")
        #expect(chart.filter(\.enabled).map(\.name) == ["pause", "stop", "mute", "lowBandwidth"])
        #expect(chart.first { $0.name == "unmute" }?.reason == "no transition for 'unmute' leaves 'sound' or 'hd' or their ancestors")

        // A final instance takes nothing.
        try server.create("ticket", key: "c")
        try server.send("ticket", "c", "cancel")
        let finished = try Self.inputs(try server.get("/machines/ticket/instances/c/inputs"))
        #expect(finished.count == 3 && finished.allSatisfy { !$0.enabled && $0.reason == "the instance has finished" }, "\(finished)")

        #expect(try server.get("/machines/ticket/instances/nobody/inputs").isProblem(404, naming: ["'nobody'"]))
        #expect(try server.get("/machines/nothing/instances/c/inputs").isProblem(404, naming: ["'nothing'"]))
        #expect(try server.get("/machines/ticket/instances/.hidden/inputs").isProblem(400, naming: ["'.hidden'", "not valid"]))
    }

    // MARK: - Definitions and diagrams

    @Test func aDefinitionListsItsStatesTransitionsAndInputs() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, machines: Self.machines)
        let made = try server.create("media-player", key: "p")
        let fingerprint = try #require(made["fingerprint"] as? String)
        let answer = try server.get("/machines/media-player/definitions/\(fingerprint)")
        #expect(answer.status == 200 && answer.header("Content-Type") == "application/json", "\(answer.text)")
        let definition = try answer.object()
        #expect(definition["machine"] as? String == "media-player" && definition["kind"] as? String == "statechart")
        #expect(definition["fingerprint"] as? String == fingerprint)
        let states = try #require(definition["states"] as? [[String: Any]])
        func state(_ name: String) -> [String: Any]? { states.first { $0["name"] as? String == name } }
        #expect(state("stopped")?["kind"] as? String == "atomic" && state("stopped")?["parent"] is NSNull)
        #expect(state("active")?["kind"] as? String == "compound")
        #expect(state("playing")?["kind"] as? String == "parallel" && state("playing")?["parent"] as? String == "active")
        #expect(state("sound")?["parent"] as? String == "audio")
        #expect(state("lastPlayback")?["kind"] as? String == "history")
        let transitions = try #require(definition["transitions"] as? [[String: Any]])
        #expect(transitions.map { JSONValue.int($0["n"]) } == Array(0..<9))
        #expect(transitions[7]["input"] as? String == "stop" && transitions[7]["from"] as? [String] == ["active"])
        #expect(transitions[7]["to"] as? [String] == ["stopped"])
        #expect((definition["inputs"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == (try Self.listedInputs("media-player", server)))

        // The timer's transition names its delay; a final state is one.
        let alarm = try server.create("alarm", key: "a")
        let timed = try server.get("/machines/alarm/definitions/\(try #require(alarm["fingerprint"] as? String))").object()
        let after = try #require((timed["transitions"] as? [[String: Any]])?.last)
        #expect(after["input"] is NSNull && after["after"] as? String == "1s", "\(after)")
        let ticket = try server.create("ticket", key: "t")
        let ticketDefinition = try server.get("/machines/ticket/definitions/\(try #require(ticket["fingerprint"] as? String))").object()
        #expect((ticketDefinition["states"] as? [[String: Any]])?.last?["kind"] as? String == "final")

        // A fingerprint of another machine, or none at all, is no definition of this one.
        #expect(try server.get("/machines/media-player/definitions/\(try #require(ticket["fingerprint"] as? String))").isProblem(404))
        #expect(try server.get("/machines/media-player/definitions/sha256:00").isProblem(404, naming: ["sha256:00"]))
        let long = "sha256:" + String(repeating: "f", count: 5_000)
        #expect(try server.get("/machines/media-player/definitions/\(long)/diagram.svg").isProblem(404, naming: ["sha256:fff", "..."]))
        #expect(try server.get("/machines/nothing/definitions/\(fingerprint)").isProblem(404, naming: ["'nothing'"]))
        #expect(try server.get("/machines/nothing/definitions/\(fingerprint)/diagram.svg").isProblem(404))
        #expect(try server.get("/machines/ticket/definitions/sha256:00/diagram.mmd").isProblem(404))
    }

    @Test(arguments: ["media-player", "ticket"])
    func theDiagramHasAGroupPerStateAndAnEdgePerTransition(_ machine: String) throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, machines: Self.machines)
        let fingerprint = try #require(try server.create(machine, key: "k")["fingerprint"] as? String)
        let definition = try server.get("/machines/\(machine)/definitions/\(fingerprint)").object()
        let answer = try server.get("/machines/\(machine)/definitions/\(fingerprint)/diagram.svg")
        #expect(answer.status == 200 && answer.header("Content-Type") == "image/svg+xml", "\(answer.text.prefix(500))")
        let svg = try Self.parse(answer.text)
        let names = ((definition["states"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
        #expect(svg.states == Dictionary(uniqueKeysWithValues: names.map { ($0, 1) }), "\(svg.states)")
        let count = (definition["transitions"] as? [Any])?.count ?? -1
        #expect(svg.transitions == Dictionary(uniqueKeysWithValues: (0..<count).map { (String($0), 1) }), "\(svg.transitions)")
        // Only the start arrow and the arrows to compound states' initial children have no number.
        #expect(svg.unnumbered.allSatisfy { $0.hasPrefix("start->") || $0.hasPrefix("i") }, "\(svg.unnumbered)")
        // The drawing is kept: a second request answers the same bytes.
        #expect(try server.get("/machines/\(machine)/definitions/\(fingerprint)/diagram.svg").body == answer.body)

        let mermaid = try server.get("/machines/\(machine)/definitions/\(fingerprint)/diagram.mmd")
        #expect(mermaid.status == 200 && mermaid.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(mermaid.text.hasPrefix("stateDiagram-v2\n"), "\(mermaid.text)")
    }

    /// A description written as markup is text in the drawing: no element or attribute of it.
    @Test func markupInAMachineIsTextInTheDrawing() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, machines: Self.machines)
        let fingerprint = try #require(try server.create("ticket", key: "k")["fingerprint"] as? String)
        let svg = try Self.parse(try server.get("/machines/ticket/definitions/\(fingerprint)/diagram.svg").text)
        #expect(!svg.tags.contains("img") && !svg.attributes.contains("onerror"), "\(svg.tags) \(svg.attributes)")
        #expect(svg.titles.contains("<img src=x onerror=alert(1)>"), "\(svg.titles)")
        // The final state has a double border: two outlines in its group.
        #expect(svg.shapes["done"] == 2 && svg.shapes["paid"] == 1, "\(svg.shapes)")
    }

    @Test func withoutGraphvizTheDiagramIs503NamingItsPackage() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files, machines: Self.machines, environment: ["PATH": files.path("no-tools")])
        let fingerprint = try #require(try server.create("ticket", key: "k")["fingerprint"] as? String)
        let answer = try server.get("/machines/ticket/definitions/\(fingerprint)/diagram.svg")
        #expect(answer.isProblem(503, naming: ["graphviz", "dot"]), "\(answer.text)")
        #expect(try server.get("/machines/ticket/definitions/\(fingerprint)/diagram.mmd").status == 200)
    }

    /// A `dot` that fails is a 500 naming what it said; one that takes longer than 10 seconds is
    /// killed, and the answer is 503. Neither is kept: the next request runs `dot` again.
    @Test func aFailingOrHangingGraphvizIsAnsweredAndNotKept() throws {
        let files = try TemporaryFiles()
        let tools = files.path("tools")
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        let dot = tools + "/dot"
        try Self.script(dot, "echo 'Error: this dot draws nothing' >&2; exit 3")
        let server = try ServerProcess.start(files, machines: Self.machines, environment: ["PATH": tools])
        let fingerprint = try #require(try server.create("ticket", key: "k")["fingerprint"] as? String)
        let path = "/machines/ticket/definitions/\(fingerprint)/diagram.svg"
        let failed = try server.get(path)
        #expect(failed.isProblem(500, naming: ["exit status 3", "this dot draws nothing"]), "\(failed.text)")

        try Self.script(dot, "exec /bin/sleep 120")
        let hung = try server.request("GET", path, timeout: .seconds(60))
        #expect(hung.isProblem(503, naming: ["10 s"]), "\(hung.text)")
    }

    // MARK: - smrun graph --format svg

    @Test func graphDrawsTheSameSVGOrNamesGraphvizWhenItIsMissing() throws {
        let run = try Smrun.run(["graph", Self.ticket, "--format", "svg"])
        #expect(run.exited(0), "\(run.errorText)")
        let svg = try Self.parse(run.text)
        #expect(svg.states == ["open": 1, "paid": 1, "done": 1] && svg.transitions == ["0": 1, "1": 1, "2": 1], "\(svg)")

        let files = try TemporaryFiles()
        let child = try Subprocess(
            try Paths.smrun().path, ["graph", Self.ticket, "--format", "svg"], directory: Paths.packageRoot.path,
            environment: ["PATH": files.path("no-tools")])
        child.feed(Data())
        let output = Subprocess.drain(child.output)
        let errors = Subprocess.drain(child.errorOutput)
        let end = child.wait(timeout: .seconds(60))
        #expect(end?.status == 2 && output.wait().isEmpty)
        let message = String(decoding: errors.wait(), as: UTF8.self)
        #expect(message.hasPrefix("smrun: ") && message.contains("graphviz"), "\(message)")
    }

    // MARK: - Helpers

    struct Input: Equatable, CustomStringConvertible {
        var name: String
        var arg: String?
        var enabled: Bool
        var reason: String?
        var description: String { "\(name) \(arg ?? "-") \(enabled) \(reason ?? "-")" }
    }

    static func inputs(_ answer: HTTPAnswer) throws -> [Input] {
        let array = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [[String: Any]], "\(answer.text)")
        return array.map {
            Input(name: $0["name"] as? String ?? "?", arg: $0["arg"] as? String, enabled: $0["enabled"] as? Bool ?? false, reason: $0["reason"] as? String)
        }
    }

    /// The names of the inputs `GET /machines` lists for `machine`.
    static func listedInputs(_ machine: String, _ server: ServerProcess) throws -> [String] {
        let machines = try #require(try server.get("/machines").object()["machines"] as? [[String: Any]])
        let listed = try #require(machines.first { $0["name"] as? String == machine }?["inputs"] as? [[String: Any]])
        return listed.compactMap { $0["name"] as? String }
    }

    /// Writes an executable shell script at `path` that runs `body`. Close-on-exec: a child that
    /// another test spawns meanwhile must not keep it open for writing, or running it fails
    /// with "Text file busy".
    static func script(_ path: String, _ body: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(fd >= 0, "cannot write \(path): errno \(errno)")
        let text = Array("#!/bin/sh\n\(body)\n".utf8)
        let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        try #require(written == text.count, "cannot write \(path): errno \(errno)")
    }

    static func numbers(_ value: Any?) -> [Int]? {
        (value as? [Any])?.compactMap { JSONValue.int($0) }
    }

    /// What a page finds in an SVG drawing (parsed by Python's XML parser).
    struct DrawnParts: Decodable, CustomStringConvertible {
        /// How many groups carry each `data-state`, and each `data-transition`.
        var states: [String: Int]
        var transitions: [String: Int]
        /// The titles of the edges without a `data-transition`.
        var unnumbered: [String]
        /// Per state, the outlines its group draws.
        var shapes: [String: Int]
        var tags: [String]
        var attributes: [String]
        /// Every `xlink:title` (tooltips).
        var titles: [String]
        var description: String { "states \(states), transitions \(transitions), unnumbered \(unnumbered)" }
    }

    static let partsScript = """
        import json, sys, xml.etree.ElementTree as ET
        svg = '{http://www.w3.org/2000/svg}'
        root = ET.fromstring(sys.stdin.read())
        parts = {"states": {}, "transitions": {}, "unnumbered": [], "shapes": {}}
        for g in root.iter(svg + 'g'):
            state, transition = g.get('data-state'), g.get('data-transition')
            if state is not None:
                parts["states"][state] = parts["states"].get(state, 0) + 1
                parts["shapes"][state] = sum(1 for c in g if c.tag in (svg + 'polygon', svg + 'path', svg + 'ellipse'))
            if transition is not None:
                parts["transitions"][transition] = parts["transitions"].get(transition, 0) + 1
            elif g.get('class') == 'edge':
                parts["unnumbered"].append(g.findtext(svg + 'title'))
        parts["tags"] = sorted({e.tag.split('}')[-1] for e in root.iter()})
        parts["attributes"] = sorted({a.split('}')[-1] for e in root.iter() for a in e.attrib})
        parts["titles"] = [v for e in root.iter() for k, v in e.attrib.items() if k.endswith('}title')]
        print(json.dumps(parts))
        """

    static func parse(_ svg: String) throws -> DrawnParts {
        let python = try ExternalTool.python.run(["-c", partsScript], input: svg)
        try #require(python.status == 0, "\(python.errorText)\n\(svg.prefix(2000))")
        return try JSONDecoder().decode(DrawnParts.self, from: python.stdout)
    }
}
