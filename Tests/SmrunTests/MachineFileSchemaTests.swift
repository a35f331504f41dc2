import Foundation
import StatecraftYAML
import Testing

/// `smrun schema` (the JSON Schema editors use): the committed file is what smrun prints, it
/// names exactly the keys the decoder knows, and a real validator (PyPI's `jsonschema`) accepts
/// every machine smrun accepts and refuses the mistakes JSON Schema can express.
@Suite struct MachineFileSchemaTests {
    static let schemaPath = "schema/machine.schema.json"

    static func committedSchema() throws -> Data {
        try Data(contentsOf: Paths.packageRoot.appendingPathComponent(schemaPath))
    }

    static func schemaObject() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: committedSchema()) as? [String: Any])
    }

    @Test func smrunSchemaPrintsTheCommittedFile() throws {
        let output = try Smrun.run(["schema"])
        #expect(output.exited(0))
        #expect(output.stdout == (try Self.committedSchema()), "run `make schema` to rewrite \(Self.schemaPath) from smrun")
    }

    /// Each mapping of the format, where the schema describes it, and the decoder's keys for it.
    static let mappings: [(pointer: [String], keys: [StaticString])] = [
        ([], MachineFileKeys.topLevel),
        (["$defs", "inputOptions"], MachineFileKeys.input),
        (["$defs", "stateOptions"], MachineFileKeys.state),
        (["$defs", "effectStep"], MachineFileKeys.effectStep),
        (["$defs", "effectStep", "properties", "log", "oneOf", "1"], MachineFileKeys.log),
        (["$defs", "effectStep", "properties", "foreach"], MachineFileKeys.forEach),
        (["$defs", "sentInput", "oneOf", "1"], MachineFileKeys.sentInput),
        (["$defs", "transition"], MachineFileKeys.transition),
        (["$defs", "excludedSources"], MachineFileKeys.excludedSources),
    ]

    static func resolve(_ pointer: [String], in schema: Any) throws -> [String: Any] {
        var node = schema
        for step in pointer {
            if let list = node as? [Any], let index = Int(step) { node = list[index] } else { node = try #require((node as? [String: Any])?[step]) }
        }
        return try #require(node as? [String: Any])
    }

    @Test func theSchemaNamesExactlyTheKeysTheDecoderKnows() throws {
        let schema = try Self.schemaObject()
        for (pointer, keys) in Self.mappings {
            let mapping = try Self.resolve(pointer, in: schema)
            let properties = try #require(mapping["properties"] as? [String: Any])
            let where_ = "/" + pointer.joined(separator: "/")
            #expect(Set(properties.keys) == Set(keys.map(\.description)), "schema \(where_) and the decoder's keys differ")
            #expect(mapping["additionalProperties"] as? Bool == false, "schema \(where_) must refuse unknown keys")
        }
    }

    @Test func everyMappingWithPropertiesIsComparedWithTheDecoder() throws {
        // A new mapping in the schema without a key list to compare it with would drift unseen.
        var found: [[String]] = []
        func walk(_ node: Any, _ pointer: [String]) {
            if let object = node as? [String: Any] {
                if object["properties"] != nil { found.append(pointer) }
                for (key, value) in object where key != "properties" { walk(value, pointer + [key]) }
                if let properties = object["properties"] as? [String: Any] {
                    for (key, value) in properties { walk(value, pointer + ["properties", key]) }
                }
            } else if let list = node as? [Any] {
                for (index, value) in list.enumerated() { walk(value, pointer + [String(index)]) }
            }
        }
        walk(try Self.schemaObject(), [])
        #expect(Set(found) == Set(Self.mappings.map(\.pointer)))
    }

    @Test func everyKeyHasADescription() throws {
        var missing: [String] = []
        func walk(_ node: Any, _ path: String) {
            guard let object = node as? [String: Any] else {
                (node as? [Any])?.enumerated().forEach { walk($1, "\(path)/\($0)") }
                return
            }
            for (key, value) in object {
                if key == "properties", let properties = value as? [String: Any] {
                    for (name, property) in properties {
                        if (property as? [String: Any])?["description"] == nil { missing.append("\(path)/properties/\(name)") }
                    }
                }
                walk(value, "\(path)/\(key)")
            }
        }
        walk(try Self.schemaObject(), "")
        #expect(missing.isEmpty, "keys without a description: \(missing)")
    }

    // MARK: - A real validator

    /// `schema/check-machine-files.py` on `files`: each file's verdict, `valid`, `invalid` or
    /// `unreadable` (YAML that does not parse), with the validator's message.
    static func verdicts(_ files: [String]) throws -> [String: String] {
        let output = try ExternalTool.python.run(["schema/check-machine-files.py", schemaPath] + files)
        try #require(output.status == 0, "check-machine-files.py failed: \(output.errorText)")
        var verdicts: [String: String] = [:]
        for line in output.lines {
            let words = line.split(separator: " ", maxSplits: 1)
            let rest = words[1]
            let file = rest.split(separator: ":", maxSplits: 1).first.map(String.init) ?? String(rest)
            verdicts[file.hasSuffix(":") ? String(file.dropLast()) : file] = line
        }
        return verdicts
    }

    static func files(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot.appendingPathComponent(directory).path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") && !$0.hasSuffix(".test.yaml") }.sorted().map { "\(directory)/\($0)" }
    }

    @Test func everyMachineAndValidFixturePasses() throws {
        let files = Self.files(in: "machines") + Self.files(in: "Tests/SmrunTests/Fixtures").filter { !$0.contains("/invalid-") }
        #expect(files.count >= 15)
        let verdicts = try Self.verdicts(files)
        for file in files {
            #expect(verdicts[file]?.hasPrefix("valid ") == true, "\(verdicts[file] ?? "no verdict for \(file)")")
        }
    }

    /// Fixtures smrun refuses for a reason JSON Schema can express (an unknown key, a missing
    /// one, a value of the wrong kind, a value not in an enum, a name or row of the wrong shape),
    /// with the part of the file the validator must point at.
    static let invalidFixtures: [(file: String, at: String)] = [
        ("Tests/SmrunTests/Fixtures/invalid-unknown-key.yaml", "$: 'transitions' is a required property"),
        ("Tests/SmrunTests/Fixtures/invalid-argument-type.yaml", "$.inputs.load"),
        ("Tests/SmrunTests/Fixtures/invalid-empty.yaml", "$: None is not of type 'object'"),
        ("Tests/SmrunTests/Fixtures/invalid-missing-initial.yaml", "'initial' is a required property"),
        ("Tests/SmrunTests/Fixtures/invalid-several-problems.yaml", "'efects' was unexpected"),
        ("Tests/SmrunTests/Fixtures/invalid-top-level-list.yaml", "is not of type 'object'"),
        ("Tests/SmrunTests/Fixtures/validate/argument-type.yaml", "$.inputs.count.arg: 'list' is not one of"),
        ("Tests/SmrunTests/Fixtures/validate/invalid-name.yaml", "$.states[1]: 'b c' does not match"),
        ("Tests/SmrunTests/Fixtures/validate/invalid-row.yaml", "$.transitions[0]"),
        ("Tests/SmrunTests/Fixtures/validate/invalid-value.yaml", "$.on_unhandled: 'drop' is not one of ['reject', 'ignore']"),
        ("Tests/SmrunTests/Fixtures/validate/missing-key.yaml", "$.transitions[0]: 'from' is a required property"),
        ("Tests/SmrunTests/Fixtures/validate/unknown-key.yaml", "'inital' was unexpected"),
        ("Tests/SmrunTests/Fixtures/validate/wrong-kind.yaml", "$.states.a.final"),
    ]

    @Test func fixturesWithSchemaErrorsFail() throws {
        let verdicts = try Self.verdicts(Self.invalidFixtures.map(\.file))
        for (file, at) in Self.invalidFixtures {
            let verdict = verdicts[file] ?? "no verdict for \(file)"
            #expect(verdict.hasPrefix("invalid ") && verdict.contains(at), "\(verdict)")
        }
    }

    /// Codes of diagnostics that JSON Schema cannot see (references, types, expressions, lint
    /// warnings): a validate fixture with only these must pass the schema, so that editors do
    /// not flag what smrun accepts.
    static let codesBeyondTheSchema: Set<String> = [
        "duplicate-input", "duplicate-state", "expression-syntax", "expression-type", "invalid-initial",
        "undefined-input", "undefined-state", "undefined-variable", "send-cycle", "shadowed-transition",
        "trap-state", "unreachable-state", "unreachable-final", "unused-input",
    ]

    @Test func fixturesWithOnlyOtherProblemsPass() throws {
        var files: [String] = []
        for file in Self.files(in: "Tests/SmrunTests/Fixtures/validate") {
            let text = String(decoding: try Data(contentsOf: Paths.packageRoot.appendingPathComponent(file)), as: UTF8.self)
            let codes = text.split(separator: "\n").filter { $0.hasPrefix("# expect: ") }.compactMap { $0.split(separator: " ").dropFirst(2).first }
            if !codes.isEmpty, codes.allSatisfy({ Self.codesBeyondTheSchema.contains(String($0)) }) { files.append(file) }
        }
        #expect(files.count >= 10)
        let verdicts = try Self.verdicts(files)
        for file in files {
            #expect(verdicts[file]?.hasPrefix("valid ") == true, "\(verdicts[file] ?? "no verdict for \(file)")")
        }
    }
}

/// Small machine files on the edges of the format: the schema and `smrun validate` must give
/// the same verdict on each.
@Suite struct MachineFileSchemaAgreementTests {
    /// Each case: what it tries, a machine file, and whether smrun accepts it.
    static let cases: [(name: String, yaml: String, valid: Bool)] = [
        ("wildcard source", "initial: a\nstates: [a, b]\ntransitions:\n  - { input: go, from: '*', to: b }\n", true),
        ("wildcard listed with others", "initial: a\nstates: [a, b]\ntransitions:\n  - { input: go, from: [a, '*'], to: b }\n", false),
        ("empty source list", "initial: a\nstates: [a]\ntransitions:\n  - { input: go, from: [] }\n", false),
        ("final written yes is a string", "initial: a\nstates: { a: , b: { final: yes } }\ntransitions:\n  - go | a => b\n", false),
        ("final true", "initial: a\nstates: { a: , b: { final: true } }\ntransitions:\n  - go | a => b\n", true),
        ("names that look like numbers", "initial: 1\nstates: [1, 2.5, on]\ntransitions:\n  - go | 1 => on\n", true),
        ("a name with a blank", "initial: a\nstates: [a, 'b c']\ntransitions: []\n", false),
        ("a name with a bar", "initial: a\nstates: [a, 'b|c']\ntransitions: []\n", false),
        ("input mapping", "initial: a\ninputs: { go: { arg: int, description: how far } }\nstates: [a]\ntransitions:\n  - go | a\n", true),
        ("input argument type misspelt", "initial: a\ninputs: { go: integer }\nstates: [a]\ntransitions:\n  - go | a\n", false),
        ("input as a list", "initial: a\ninputs: { go: [int] }\nstates: [a]\ntransitions:\n  - go | a\n", false),
        ("variable named arg", "initial: a\ncontext: { arg: 1 }\nstates: [a]\ntransitions: []\n", false),
        ("variable starting with a digit", "initial: a\ncontext: { 2fast: 1 }\nstates: [a]\ntransitions: []\n", false),
        ("context value a list", "initial: a\ncontext: { n: [1] }\nstates: [a]\ntransitions: []\n", true),
        ("context value a list of lists", "initial: a\ncontext: { n: [[1]] }\nstates: [a]\ntransitions: []\n", false),
        ("context value a mapping", "initial: a\ncontext: { n: { a: 1 } }\nstates: [a]\ntransitions: []\n", false),
        ("send with data",
            "initial: a\ncontext: { n: 0 }\ninputs: { go: , got: }\nstates: [a]\neffects:\n  e: { send: { input: got, data: { x: n } } }\n  f: { set: { n: arg.x } }\ntransitions:\n  - go | a | e\n  - got | a | f\n", true),
        ("send data field not a name",
            "initial: a\ncontext: { n: 0 }\ninputs: { go: , got: }\nstates: [a]\neffects:\n  e: { send: { input: got, data: { 1x: n } } }\ntransitions:\n  - go | a | e\n  - got | a\n", false),
        ("send forms",
            "initial: a\ncontext: { n: 0 }\ninputs: { go: , add: int }\nstates: [a]\neffects:\n  e1: { send: go }\n  e2: { send: [go, { input: add, arg: n + 1 }] }\n  e3: { set: { n: 1 } }\ntransitions:\n  - go | a | e1\n  - add | a | e2, e3\n",
            true),
        ("sent input without its name", "initial: a\nstates: [a]\neffects:\n  e: { send: [{ arg: 1 }] }\ntransitions:\n  - go | a | e\n", false),
        ("unknown key in an effect", "initial: a\nstates: [a]\neffects:\n  e: { sets: { n: 1 } }\ntransitions:\n  - go | a | e\n", false),
        ("on_unhandled ignore", "initial: a\non_unhandled: ignore\nstates: [a]\ntransitions: []\n", true),
        ("a row without a bar", "initial: a\nstates: [a]\ntransitions:\n  - go a\n", false),
        ("a transition as a list", "initial: a\nstates: [a]\ntransitions:\n  - [go, a]\n", false),
        ("no transitions key", "initial: a\nstates: [a]\n", false),
        ("transitions empty", "initial: a\nstates: [a]\ntransitions:\n", true),
        // Refusals, exceptions, descriptions, internal inputs.
        ("every state but one",
            "initial: a\nstates: [a, b, c]\ntransitions:\n  - { input: go, from: { not: c }, to: c }\n  - back | c => a\n", true),
        ("an exception without not", "initial: a\nstates: [a, b]\ntransitions:\n  - { input: go, from: { but: b }, to: b }\n", false),
        ("a refusal", "initial: a\nstates: [a]\ntransitions:\n  - { input: go, from: a, reject: not now }\n", true),
        ("descriptions",
            "initial: a\nstates: { a: { description: the start } }\ntransitions:\n  - { input: go, from: a, description: loops }\n", true),
        ("an internal input",
            "initial: a\ninputs: { go: , tick: { internal: true } }\nstates: [a]\neffects:\n  e: { send: tick }\ntransitions:\n  - go | a | e\n  - tick | a\n",
            true),
        ("internal written yes",
            "initial: a\ninputs: { go: , tick: { internal: yes } }\nstates: [a]\ntransitions:\n  - go | a\n  - tick | a\n", false),
        // Statecharts.
        ("nested and parallel states",
            "initial: off\nstates:\n  off:\n  on: { parallel: true, states: { lamp: { states: [dim, bright] }, fan: { states: [slow, fast] } } }\ntransitions:\n  - start | off => on\n  - up | dim => bright\n",
            true),
        ("parallel written yes", "initial: a\nstates:\n  a: { parallel: yes, states: [b, c] }\ntransitions: []\n", false),
        ("history misspelt",
            "initial: a\nstates:\n  a: { states: { b: , h: { history: shalow } } }\n  z:\ntransitions:\n  - go | a => z\n  - back | z => h\n", false),
        ("deep history with a default",
            "initial: a\nstates:\n  a: { states: { b: , c: , h: { history: deep, default: c } } }\n  z:\ntransitions:\n  - go | a => z\n  - back | z => h\n", true),
        ("an eventless transition",
            "initial: a\ncontext: { n: 1 }\nstates: [a, b]\ntransitions:\n  - { from: a, to: b, when: n > 0 }\n", true),
        ("an internal transition",
            "initial: p\nstates:\n  p: { states: [a, b] }\ntransitions:\n  - { input: go, from: p, to: b, type: internal }\n", true),
        ("a transition type misspelt",
            "initial: p\nstates:\n  p: { states: [a, b] }\ntransitions:\n  - { input: go, from: p, to: b, type: inner }\n", false),
        ("input patterns",
            "initial: a\ninputs: [error.timeout, go]\nstates: [a, b]\ntransitions:\n  - { input: 'error.*', from: a, to: b }\n  - { input: '*', from: b, to: a }\n", true),
    ]

    @Test func theSchemaAndSmrunAgree() throws {
        let files = try TemporaryFiles()
        var paths: [String] = []
        for (index, testCase) in Self.cases.enumerated() { paths.append(try files.file("case\(index).yaml", testCase.yaml)) }
        let verdicts = try MachineFileSchemaTests.verdicts(paths)
        for (testCase, path) in zip(Self.cases, paths) {
            let verdict = verdicts[path] ?? "no verdict"
            #expect(verdict.hasPrefix(testCase.valid ? "valid " : "invalid "), "schema, \(testCase.name): \(verdict)")
            let smrun = try Smrun.run(["validate", path])
            #expect(smrun.exited(testCase.valid ? 0 : 1), "smrun, \(testCase.name): \(smrun.text)")
        }
    }
}
