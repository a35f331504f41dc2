import Statecraft
import Testing

@testable import StatecraftYAML

/// YAML 1.1's merge key (`<<: *anchor`), which users bring from other tools: a mapping takes the
/// entries of the merged mappings it does not have itself, and duplicate keys are still errors.
struct YAMLMergeKeyTests {
    /// `key=value@line:column` for each entry of the mapping at `path` (keys from the root).
    func entries(_ text: String, _ path: String...) throws -> [String] {
        var node = try #require(try YAMLParser.parse(Array(text.utf8)))
        for key in path {
            guard case .mapping(let map) = node, let entry = map[key] else { Issue.record("no \(key)"); return [] }
            node = entry.value
        }
        guard case .mapping(let map) = node else { Issue.record("not a mapping"); return [] }
        return map.entries.map { "\($0.key.value)=\($0.value.scalar?.value ?? "?")@\($0.key.position)" }
    }

    func failure(_ text: String) -> YAMLError? {
        do {
            _ = try YAMLParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func aMergedMappingsEntriesAreAddedWhereTheyAreWritten() throws {
        let text = """
            base: &base { a: 1, b: 2 }
            m:
              <<: *base
              c: 3
            """
        let got = try entries(text, "m")
        #expect(got == ["a=1@1:15", "b=2@1:21", "c=3@4:3"], "\(got)")
    }

    @Test func keysWrittenInTheMappingWinBeforeOrAfterTheMergeKey() throws {
        let after = "base: &base { a: 1, b: 2 }\nm:\n  <<: *base\n  a: 9\n"
        let gotAfter = try entries(after, "m")
        #expect(gotAfter == ["b=2@1:21", "a=9@4:3"], "\(gotAfter)")
        let before = "base: &base { a: 1, b: 2 }\nm:\n  a: 9\n  <<: *base\n"
        let gotBefore = try entries(before, "m")
        #expect(gotBefore == ["a=9@3:3", "b=2@1:21"], "\(gotBefore)")
    }

    @Test func amongMergedMappingsTheEarlierWins() throws {
        let text = "x: &x { a: 1 }\ny: &y { a: 2, b: 2 }\nm: { <<: [*x, *y], c: 3 }\n"
        let got = try entries(text, "m")
        #expect(got == ["a=1@1:9", "b=2@2:15", "c=3@3:20"], "\(got)")
    }

    @Test func duplicateKeysAreStillErrors() throws {
        let twice = failure("base: &base { a: 1 }\nm:\n  <<: *base\n  b: 1\n  b: 2\n")
        #expect(twice?.code == .duplicateKey)
        #expect(twice?.position == SourcePosition(line: 5, column: 3))
        #expect(twice?.message == "duplicate key 'b' (first at line 4, again at line 5)")
        // A key written twice after overriding a merged one: the second is a duplicate.
        let overridden = failure("base: &base { a: 1 }\nm:\n  <<: *base\n  a: 2\n  a: 3\n")
        #expect(overridden?.code == .duplicateKey)
        #expect(overridden?.position == SourcePosition(line: 5, column: 3))
        let merges = failure("base: &base { a: 1 }\nm:\n  <<: *base\n  <<: *base\n")
        #expect(merges?.code == .duplicateKey)
        #expect(merges?.message == "duplicate merge key '<<' (first at line 3, again at line 4)")
    }

    @Test func manyKeysAndKeysThatAreNotASCII() throws {
        let keys = (0..<20).map { "k\($0): \($0)" }.joined(separator: ", ")
        let text = "base: &base { \(keys), é: x }\nm:\n  <<: *base\n  k3: over\n  é: over\n  new: 1\n"
        let merged = try entries(text, "m")
        #expect(merged.count == 22)
        #expect(merged.filter { $0.hasPrefix("k3=") } == ["k3=over@4:3"])
        #expect(merged.filter { $0.hasPrefix("é=") } == ["é=over@5:3"])
        let duplicate = failure("base: &base { \(keys) }\nm:\n  <<: *base\n  k3: 1\n  k3: 2\n")
        #expect(duplicate?.code == .duplicateKey)
        #expect(duplicate?.position == SourcePosition(line: 5, column: 3))
    }

    @Test func aMergeKeyTakesMappingsOnly() throws {
        let scalar = failure("m:\n  <<: text\n")
        #expect(scalar?.code == .wrongKind)
        #expect(scalar?.position == SourcePosition(line: 2, column: 7))
        #expect(scalar?.message == "a merge key ('<<') takes a mapping or a list of mappings, not a scalar")
        let list = failure("m:\n  <<: [{ a: 1 }, [x]]\n")
        #expect(list?.code == .wrongKind)
        #expect(list?.position == SourcePosition(line: 2, column: 18))
    }

    @Test func aQuotedOrTaggedMergeKeyIsAPlainKey() throws {
        #expect(failure("m: { '<<': 1, !!str <<: 2 }\n")?.message == "duplicate key '<<' (first at line 1, again at line 1)")
        #expect(try entries("m: { '<<': 1 }\n", "m") == ["<<=1@1:6"])
    }

    @Test func mergesCountTowardsTheNodeLimit() throws {
        var text = "a0: &a0 { x: 1, y: 2 }\n"
        for level in 1...30 { text += "a\(level): &a\(level) { <<: [*a\(level - 1)], z\(level): [*a\(level - 1), *a\(level - 1)] }\n" }
        let error = try #require(failure(text))
        #expect(error.code == .limitExceeded)
    }

    @Test func aMachineFileMayMergeStateOptions() throws {
        let loaded = YAMLFile.load(
            bytes: Array(
                """
                initial: parked
                states:
                  parked: &quiet { entry: [stop], exit: [start] }
                  waiting:
                    <<: *quiet
                    exit: [go]
                transitions:
                  - wait | parked => waiting
                """.utf8), defaultName: "merge")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let machine = try #require(loaded.machine)
        let waiting = try #require(machine.stateNames.firstIndex(of: "waiting"))
        #expect(machine.entryEffects[waiting].map { machine.effectNames[$0] } == ["stop"])
        #expect(machine.exitEffects[waiting].map { machine.effectNames[$0] } == ["go"])
        // A merged key the schema does not know is reported where it is written.
        let unknown = YAMLFile.load(
            bytes: Array("initial: a\ncommon: &c { entry: [e], color: red }\nstates:\n  a: { <<: *c }\ntransitions: []\n".utf8),
            defaultName: "merge")
        #expect(unknown.diagnostics.map { "\($0.code.rawValue)@\($0.position.map(\.description) ?? "file")" }.contains("unknown-key@2:26"), "\(unknown.diagnostics)")
    }
}
