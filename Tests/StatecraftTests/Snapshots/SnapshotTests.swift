import Testing

@testable import Statecraft

/// Snapshots (``SnapshotCodec``), machine fingerprints and the SHA-256 under them.
struct SnapshotTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func sha256MatchesTheStandardVectors(_ message: String, _ expected: String) {
        let digest = SHA256.hash(Array(message.utf8))
        #expect(digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() == expected)
    }

    /// A machine with a variable of every type, a guard, an effect that sends, and a final state.
    func definition(
        states: [String] = ["idle", "busy", "done"], guardText: String = "count < 10", policy: MachineDefinition.UnhandledPolicy = .reject,
        name: String = "m", initialCount: Int = 0, swapTransitions: Bool = false
    ) -> MachineDefinition {
        let declarations = states.map { StateDeclaration(Named($0), isFinal: $0 == "done") }
        var transitions = [
            TransitionDefinition(Named("go"), from: .states([Named("idle")]), to: Named("busy"), when: ExpressionSource(guardText), effects: [Named("work")]),
            TransitionDefinition(Named("go"), from: .states([Named("busy")]), to: Named("idle"), when: nil, effects: []),
            TransitionDefinition(Named("stop"), from: .states([Named("busy")]), to: Named("done"), when: nil, effects: []),
            TransitionDefinition(Named("label"), from: .states([Named("idle")]), to: nil, when: nil, effects: [Named("rename")]),
        ]
        if swapTransitions { transitions.swapAt(0, 1) }
        return MachineDefinition(
            name: name, initial: "idle", onUnhandled: policy,
            context: [
                ContextVariable("count", .int(initialCount)), ContextVariable("ratio", .double(0.5)),
                ContextVariable("ready", .bool(false)), ContextVariable("name", .string("")), ContextVariable("last", .null),
            ],
            inputs: [InputDeclaration("go"), InputDeclaration("stop"), InputDeclaration("label", argumentType: .string)],
            states: declarations,
            effects: [
                EffectDefinition("work", assignments: [.init("count", "count + 1"), .init("ratio", "ratio * 2")]),
                EffectDefinition("rename", assignments: [.init("name", "arg"), .init("last", "arg")]),
            ],
            transitions: transitions)
    }

    @Test func aSnapshotRoundTripsEveryKindOfValue() throws {
        let machine = try compile(definition())
        let codec = SnapshotCodec(machine)
        #expect(machine.variableTypes.map(\.description) == ["int", "double", "bool", "string", "string?"])
        let values: [[Value]] = [
            [.int(Int.min), .double(-0.0), .bool(true), .string("é \"q\" \\ \n\t\u{1} 😀"), .null],
            [.int(Int.max), .double(.infinity), .bool(false), .string(""), .string("x")],
            [.int(-1), .double(-.infinity), .bool(false), .string("\u{7F}"), .null],
            [.int(0), .double(1e-300), .bool(false), .string("a"), .null],
            [.int(0), .double(0.1 + 0.2), .bool(false), .string("a"), .null],
        ]
        for context in values {
            let bytes = codec.encode(state: 1, context: context)
            let decoded = try codec.decode(bytes)
            #expect(decoded.state == 1)
            #expect(decoded.context == context, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(decoded.machineName == "m")
            #expect(decoded.fingerprint == codec.fingerprint)
        }
        let nan = try codec.decode(codec.encode(state: 0, context: [.int(0), .double(.nan), .bool(false), .string(""), .null]))
        guard case .double(let d) = nan.context[1] else { Issue.record("not a double"); return }
        #expect(d.isNaN)
    }

    @Test func theDocumentIsTheDocumentedOne() throws {
        let machine = try compile(definition())
        let codec = SnapshotCodec(machine)
        let text = String(decoding: codec.encode(state: 0, context: machine.initialContext), as: UTF8.self)
        #expect(
            text == """
                {
                  "format": "statecraft-snapshot",
                  "version": 1,
                  "machine": "m",
                  "fingerprint": "\(codec.fingerprint.text)",
                  "state": "idle",
                  "context": {
                    "count": 0,
                    "ratio": 0.5,
                    "ready": false,
                    "name": "",
                    "last": null
                  }
                }

                """)
        #expect(codec.fingerprint.text.hasPrefix("sha256:") && codec.fingerprint.text.count == 7 + 64)
    }

    @Test func aRunnerResumesFromASnapshot() throws {
        let machine = try compile(definition())
        let codec = SnapshotCodec(machine)
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("go", into: &recorder)
        let saved = codec.encode(codec.snapshot(of: runner))
        var resumed = TableRunner(machine)
        resumed.restore(try codec.decode(saved))
        #expect(resumed.state == runner.state)
        #expect(resumed.context == runner.context)
        var more = Recorder()
        resumed.send("go", into: &more)
        #expect(more.entries.map(\.state) == ["idle"])
    }

    @Test func theFingerprintIgnoresNamesAndDeclarationOrder() throws {
        let base = try compile(definition()).fingerprint
        #expect(try compile(definition()).fingerprint == base, "stable")
        #expect(try compile(definition(name: "other")).fingerprint == base, "the name is not behaviour")
        #expect(try compile(definition(states: ["done", "busy", "idle"])).fingerprint == base, "nor is the order of states")
    }

    @Test func theFingerprintChangesWithBehaviour() throws {
        let base = try compile(definition()).fingerprint
        let changed = [
            ("guard", definition(guardText: "count < 11")),
            ("policy", definition(policy: .ignore)),
            ("initial value", definition(initialCount: 1)),
            ("transition order", definition(swapTransitions: true)),
        ]
        for (what, changedDefinition) in changed {
            #expect(try compile(changedDefinition).fingerprint != base, "\(what)")
        }
    }

    @Test func decodingReportsWhatIsWrong() throws {
        let machine = try compile(definition())
        let codec = SnapshotCodec(machine)
        let valid = String(decoding: codec.encode(state: 0, context: machine.initialContext), as: UTF8.self)
        let other = SnapshotCodec(try compile(definition(initialCount: 5)))
        let cases: [(String, SnapshotError.Kind, String)] = [
            ("{\n  \"a\": tru\n}", .syntax, "not valid JSON: unexpected 't', expected a value at line 2, column 8"),
            ("{\"a\": \"\\ud800\"}", .syntax, "lone surrogate"),
            ("{\"a\": 01}", .syntax, "may not start with 0"),
            ("\"snapshot\"", .notASnapshot, "the document is a string, not an object"),
            (valid.replacing("\"version\": 1", with: "\"version\": 3"), .unsupportedVersion, "version 3 is not supported"),
            (valid.replacing("\"state\": \"idle\"", with: "\"state\": \"Idle\""), .unknownState, "(did you mean 'idle'?)"),
            (valid.replacing("\"ready\": false", with: "\"ready\": 0"), .invalidContext, "'ready' is of type bool, but the snapshot has the number 0"),
            (valid.replacing("\"count\": 0", with: "\"count\": null"), .invalidContext, "'count' is of type int, but the snapshot has null"),
            (valid.replacing("\"ratio\": 0.5", with: "\"ratio\": \"Infinite\""), .invalidContext, "the string \"Infinite\""),
            (String(decoding: other.encode(state: 0, context: other.machine.initialContext), as: UTF8.self), .differentMachine,
             "a different definition of machine 'm'"),
        ]
        for (text, kind, message) in cases {
            #expect(throws: SnapshotError.self) { try codec.decode(Array(text.utf8)) }
            do {
                _ = try codec.decode(Array(text.utf8))
            } catch {
                #expect(error.kind == kind, "\(text)")
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
        // An integer for a double variable is a double.
        let widened = try codec.decode(Array(valid.replacing("\"ratio\": 0.5", with: "\"ratio\": 2").utf8))
        #expect(widened.context[1] == .double(2))
    }
}
