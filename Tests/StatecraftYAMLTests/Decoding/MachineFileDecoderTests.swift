import Statecraft
import Testing

@testable import StatecraftYAML

/// Machine files (docs/machine-files.md) decoded into definitions, and the diagnostics of bad ones.
struct MachineFileDecoderTests {
    func load(_ text: String) -> LoadResult {
        YAMLFile.load(bytes: Array(text.utf8), defaultName: "test")
    }

    /// `code@line:column` for each diagnostic (`code@file` for one about the whole text).
    func problems(_ text: String) -> [String] {
        load(text).diagnostics.map { "\($0.code.rawValue)@\($0.position.map(\.description) ?? "file")" }
    }

    @Test func theDesignExampleLoads() throws {
        let result = load(
            """
            machine: self-driving-car
            initial: unstarted
            on_unhandled: reject
            context:
              passengers: 0
              location: null
            inputs:
              startEngine:
              passengersHaveEntered: int
              driveToLocation: { arg: string, description: where to go }
              noFailInput:
            states:
              unstarted:
              parked: { entry: [announceParked], exit: [] }
              pickingUpPassengers:
              drivingToLocation:
              scrapped: { final: true }
            effects:
              pickedUpPassengers: { set: { passengers: arg } }
            transitions:
              - startEngine | unstarted => parked
              - passengersHaveEntered | pickingUpPassengers => pickingUpPassengers | pickedUpPassengers
              - input: driveToLocation
                from: pickingUpPassengers
                to: drivingToLocation
                when: passengers > 0
                effects: [driveToLocation]
              - input: noFailInput
                from: "*"
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let machine = try #require(result.machine)
        #expect(machine.name == "self-driving-car")
        #expect(machine.stateNames == ["unstarted", "parked", "pickingUpPassengers", "drivingToLocation", "scrapped"])
        #expect(machine.argumentTypes == [nil, .int, .string, nil])
        #expect(machine.isFinal == [false, false, false, false, true])
        #expect(machine.entryEffects[1].map { machine.effectNames[$0] } == ["announceParked"])
        #expect(machine.transitions[3].sources == [0, 1, 2, 3], "'*' is every non-final state")
        #expect(machine.transitions[3].target == -1)
        #expect(machine.initialContext == [.int(0), .null])
    }

    @Test func namesAreStringsWhateverTheyLookLike() throws {
        let machine = try #require(
            load(
                """
                initial: "on"
                states: [on, off, 1, null]
                transitions:
                  - toggle | on => off
                  - toggle | off => 1
                """
            ).machine)
        #expect(machine.stateNames == ["on", "off", "1", "null"])
        #expect(machine.name == "test", "the name defaults to the file's base name")
    }

    @Test func rowFormsAndTheirPositions() throws {
        let result = load(
            """
            initial: a
            states: [a, b]
            transitions:
              - go | a, b => b | e1, e2
              - stay | * | hook
              - back | b
              - input: m
                from: [a]
                to: null
            """)
        let machine = try #require(result.machine)
        #expect(machine.transitions.map(\.sources) == [[0, 1], [0, 1], [1], [0]])
        #expect(machine.transitions.map(\.target) == [1, -1, -1, -1])
        #expect(machine.transitions[0].effects.map { machine.effectNames[$0] } == ["e1", "e2"])
        #expect(
            problems("initial: a\nstates: [a]\ntransitions:\n  - go | a => nowhere\n")
                == ["undefined-state@4:15"])
    }

    /// Rows and mappings that list several states or effects keep them as the decoder's
    /// spellings; compiled, each listed state is a source once, in order, and an undefined
    /// one is reported where it is written.
    @Test func listedSourcesAndEffectsAreKeptAsSpellingsAndCompiledInOrder() throws {
        let text = """
            initial: a
            states: [a, b, c]
            transitions:
              - go | b, a, b => c | e2, e1, e2
              - input: back
                from: [c, a]
                to: a
                effects: [e1, e3]
            """
        let result = load(text)
        let definition = try #require(result.definition)
        #expect(definition.transitions.allSatisfy { $0.spellings != nil })
        let machine = try #require(result.machine)
        #expect(machine.transitions.map(\.sources) == [[1, 0], [2, 0]])
        #expect(machine.transitions.map { $0.effects.map { machine.effectNames[$0] } } == [["e2", "e1", "e2"], ["e1", "e3"]])
        #expect(
            problems(text.replacingOccurrences(of: "b, a, b", with: "b, x, a, y").replacingOccurrences(of: "[c, a]", with: "[c, z]"))
                == ["undefined-state@4:13", "undefined-state@4:19", "undefined-state@6:15"])
    }

    /// A row listing more names than a compact transition keeps (300 source states and 300
    /// effects) keeps them in a box, and compiles alike.
    @Test func aRowListingHundredsOfNamesLoadsAlike() throws {
        let states = (0..<300).map { "s\($0)" }
        let effects = (0..<300).map { "e\($0)" }
        let result = load(
            "initial: s0\nstates: [\(states.joined(separator: ", "))]\ntransitions:\n"
                + "  - go | \(states.joined(separator: ", ")) => s1 | \(effects.joined(separator: ", "))\n")
        let definition = try #require(result.definition)
        #expect(definition.transitions[0].spellings == nil)
        #expect(definition.transitions[0].effects.map(\.name) == effects)
        let machine = try #require(result.machine)
        #expect(machine.transitions[0].sources == Array(0..<300))
        #expect(machine.transitions[0].effects.map { machine.effectNames[$0] } == effects)
    }

    @Test func badRowsSayWhatARowLooksLike() {
        #expect(problems("initial: a\nstates: [a]\ntransitions:\n  - go a => a\n") == ["invalid-row@4:5"])
        #expect(problems("initial: a\nstates: [a]\ntransitions:\n  - go | a | b | c\n") == ["invalid-row@4:5"])
        #expect(problems("initial: a\nstates: [a]\ntransitions:\n  - go | a =>\n") == ["invalid-row@4:12"])
        #expect(problems("initial: a\nstates: [a]\ntransitions:\n  - go | a, * => a\n") == ["invalid-row@4:10"])
        #expect(problems("initial: a\nstates: [a]\ntransitions:\n  - go | a,, a => a\n") == ["invalid-row@4:9"])
    }

    @Test func unknownKeysSuggestTheRightOne() throws {
        let result = load("initial: a\nstates: [a]\ntransitons: []\n")
        #expect(result.diagnostics.map(\.code) == [.missingKey, .unknownKey])
        let unknown = try #require(result.diagnostics.first { $0.code == .unknownKey })
        #expect(unknown.position == SourcePosition(line: 3, column: 1))
        #expect(unknown.message.hasPrefix("unknown key 'transitons' in a machine file (did you mean 'transitions'?)"))
        #expect(problems("initial: a\nstates:\n  a: { finale: true }\ntransitions: []\n") == ["unknown-key@3:8"])
    }

    @Test func everyProblemInAFileIsReported() {
        let found = problems(
            """
            initial: parkd
            on_unhandled: maybe
            context: { n: { a: 1 } }
            inputs: { go: integer }
            states: [parked]
            effects: { e: { set: { m: 1 } } }
            transitions:
              - go | parked => parked | e
              - input: go
                from: parked
                when: n >
            """)
        #expect(found == [
            "undefined-state@1:10", "invalid-value@2:15", "wrong-kind@3:15", "argument-type@4:15",
            "undefined-variable@6:24", "expression-syntax@11:14",
        ])
    }

    @Test func expressionColumnsCountTheQuote() {
        #expect(
            problems("initial: a\ncontext: { n: 0 }\nstates: [a]\ntransitions:\n  - input: go\n    from: a\n    when: \"n >= nope\"\n")
                == ["undefined-variable@7:17"])
    }

    @Test func wrongKindsAreNamed() throws {
        let result = load("initial: { a: b }\nstates: a\ntransitions: {}\n")
        #expect(result.diagnostics.map(\.code) == [.wrongKind, .wrongKind, .wrongKind])
        #expect(result.diagnostics[0].message == "'initial' must be a name, not a mapping")
    }

    /// The dispatch table has a cell per state and input: 60,000 of each in a 1 MB file would
    /// ask for some 30 GB. Found while writing the fuzz targets.
    @Test func aTableTooLargeToBuildIsALimitError() throws {
        let names = 0..<60_000
        let text =
            "initial: s0\nstates: [" + names.map { "s\($0)" }.joined(separator: ", ") + "]\ninputs: ["
            + names.map { "i\($0)" }.joined(separator: ", ") + "]\ntransitions:\n  - i0 | * => s1\n"
        let result = load(text)
        #expect(result.machine == nil)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.code == .limitExceeded)
        #expect(diagnostic.limit == .tableCells)
        #expect(diagnostic.message == "60000 states and 60000 inputs make a dispatch table of 3600000000 cells, over the limit of 16777216")
        // Wildcards expand to every non-final state: many of them count too.
        let wildcards =
            "initial: s0\nstates: [" + (0..<5_000).map { "s\($0)" }.joined(separator: ", ") + "]\ntransitions:\n"
            + (0..<5_000).map { "  - i\($0 % 10) | *\n" }.joined()
        let expanded = load(wildcards)
        #expect(expanded.diagnostics.map(\.code) == [.limitExceeded])
        #expect(expanded.diagnostics.first?.message.contains("25000000 (transition, state) pairs") == true)
        #expect(expanded.diagnostics.map(\.limit) == [.tableCells])
    }

    @Test func aFlowCollectionWhereTextIsExpectedSaysToQuoteIt() throws {
        let result = load(
            """
            description: {a, b}
            initial: idle
            machine: [x, y]
            context:
              label: {x: 1}
            states: [idle]
            transitions: []
            """)
        #expect(result.diagnostics.map { "\($0.code.rawValue)@\($0.position.map(\.description) ?? "file")" } == [
            "wrong-kind@1:14", "wrong-kind@3:10", "wrong-kind@5:10",
        ])
        for diagnostic in result.diagnostics {
            #expect(diagnostic.message.contains("quote the value"), "\(diagnostic)")
        }
        #expect(result.diagnostics[0].message.contains("an unquoted value in {...} is a flow mapping"))
        #expect(result.diagnostics[1].message.contains("an unquoted value in [...] is a flow list"))
        // A name cannot hold brackets, so quoting is no way out there: no hint.
        let name = load("initial: idle\nstates: [idle]\ntransitions:\n  - input: [go]\n    from: idle\n")
        #expect(name.diagnostics.map(\.message) == ["'input' must be a name, not a list"])
        // A block list is no typo for text: no hint.
        let block = load("description:\n  - a\ninitial: idle\nstates: [idle]\ntransitions: []\n")
        #expect(block.diagnostics.map(\.code) == [.wrongKind])
        #expect(block.diagnostics.first?.message.contains("quote") == false)
        // Parentheses are plain text; quoted braces are text.
        #expect(problems("description: cents (5, 10, 25)\ninitial: idle\nstates: [idle]\ntransitions: []\n") == [])
        #expect(problems("description: \"{a, b}\"\ninitial: idle\nstates: [idle]\ntransitions: []\n") == [])
    }

    @Test func fileLevelProblemsHaveNoPosition() {
        let utf16: [UInt8] = [0xFF, 0xFE, 0x61, 0x00]
        let result = YAMLFile.load(bytes: utf16, defaultName: "test")
        #expect(result.diagnostics.map(\.code) == [.encoding])
        #expect(result.diagnostics.first?.position == nil)
        #expect(result.diagnostics.first?.description.hasPrefix("error: file is UTF-16") == true)
        let missing = YAMLFile.load(path: "/nonexistent/machine.yaml")
        #expect(missing.diagnostics.map(\.code) == [.unreadableFile])
        #expect(missing.diagnostics.first?.position == nil)
    }

    @Test func nonMappingTopLevelAndEmptyFile() {
        #expect(problems("- a\n- b\n") == ["wrong-kind@1:1"])
        #expect(problems("") == ["missing-key@1:1"])
        #expect(problems("just text") == ["wrong-kind@1:1"])
    }
}
