import Statecraft
import TestSupport
import Testing

@testable import StatecraftYAML

/// The YAML layer: nodes with positions, and every hostile input refused quickly and clearly.
struct YAMLParserTests {
    func parse(_ text: String, limits: LoadLimits = .default) throws -> YAMLNode? {
        try YAMLParser.parse(Array(text.utf8), limits: limits)
    }

    func failure(_ bytes: [UInt8], limits: LoadLimits = .default) -> YAMLError? {
        do {
            _ = try YAMLParser.parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    func failure(_ text: String, limits: LoadLimits = .default) -> YAMLError? {
        failure(Array(text.utf8), limits: limits)
    }

    @Test func nodesCarryLineAndColumn() throws {
        let root = try #require(try parse("a: 1\nlist:\n  - x\n  - 'y'\nmap: { k: v }\n"))
        guard case .mapping(let map) = root else { Issue.record("not a mapping"); return }
        #expect(map.entries.map(\.key.value) == ["a", "list", "map"])
        #expect(map["a"]?.key.position == SourcePosition(line: 1, column: 1))
        #expect(map["a"]?.value.position == SourcePosition(line: 1, column: 4))
        guard case .sequence(let list) = map["list"]?.value else { Issue.record("not a list"); return }
        #expect(list.items.map { $0.scalar?.value } == ["x", "y"])
        #expect(list.items[1].position == SourcePosition(line: 4, column: 5))
        #expect(list.items[1].scalar?.style == .singleQuoted)
        guard case .mapping(let inner) = map["map"]?.value else { Issue.record("not a mapping"); return }
        #expect(inner["k"]?.value.position == SourcePosition(line: 5, column: 11))
    }

    @Test func emptyDocumentsHaveNoRoot() throws {
        #expect(try parse("") == nil)
        #expect(try parse("# only a comment\n") == nil)
    }

    @Test func scalarsAreReadByLengthSoAnEscapedNULSurvives() throws {
        let node = try #require(try parse("\"a\\0b\""))
        #expect(node.scalar?.value == "a\u{0}b")
    }

    @Test func coreSchemaValues() throws {
        func value(_ text: String) throws -> Value? { try parse(text)?.scalar?.coreSchemaValue }
        #expect(try value("42") == .int(42))
        #expect(try value("-7") == .int(-7))
        #expect(try value("0x1F") == .int(31))
        #expect(try value("2.5") == .double(2.5))
        #expect(try value("1e3") == .double(1000))
        #expect(try value("true") == .bool(true))
        #expect(try value("~") == .null)
        #expect(try value("null") == .null)
        #expect(try value("'42'") == .string("42"))
        #expect(try value("yes") == .string("yes"), "YAML 1.2: yes and on are strings")
        #expect(try value("on") == .string("on"))
        #expect(try value("!!str 12") == .string("12"))
        #expect(try value("99999999999999999999") == .string("99999999999999999999"))
    }

    @Test func duplicateKeysNameBothLines() throws {
        let error = try #require(failure("a: 1\nb: 2\na: 3\n"))
        #expect(error.code == .duplicateKey)
        #expect(error.position == SourcePosition(line: 3, column: 1))
        #expect(error.message == "duplicate key 'a' (first at line 1, again at line 3)")
        #expect(failure("m: { x: 1, x: 2 }")?.code == .duplicateKey)
    }

    @Test func nonScalarKeysAreRefused() {
        #expect(failure("? [a, b]\n: 1\n")?.code == .wrongKind)
    }

    @Test func aliasesExpand() throws {
        let root = try #require(try parse("base: &b [x, y]\ncopy: *b\n"))
        guard case .mapping(let map) = root, case .sequence(let copy) = map["copy"]?.value else {
            Issue.record("unexpected shape")
            return
        }
        #expect(copy.items.map { $0.scalar?.value } == ["x", "y"])
        #expect(failure("a: *nowhere")?.code == .yamlSyntax)
    }

    @Test(.timeBound) func billionLaughsHitsTheNodeLimitQuickly() throws {
        var text = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            text += "l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        let clock = ContinuousClock()
        var error: YAMLError?
        let elapsed = clock.measure { error = failure(text) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == .nodes)
        #expect(error?.diagnostic.limit == .nodes)
        #expect(error?.message == "document expands to more than 10000000 nodes (aliases counted each time they are used)")
        #expect(elapsed < .seconds(1))
    }

    @Test(.timeBound) func deepNestingStopsAtTheDepthLimit() throws {
        let clock = ContinuousClock()
        var flow: YAMLError?
        let elapsed = clock.measure { flow = failure(String(repeating: "[", count: 100_000)) }
        #expect(flow?.code == .limitExceeded)
        #expect(flow?.limit == .depth)
        #expect(flow?.message == "nesting deeper than 256 levels")
        #expect(elapsed < .seconds(1))
        var block = ""
        for depth in 0..<1000 { block += String(repeating: " ", count: depth) + "k:\n" }
        #expect(failure(block)?.code == .limitExceeded)
        // Depth through an alias counts too.
        let nested = "a: &a [[[[x]]]]\nb: [[*a]]\n"
        #expect(failure(nested, limits: LoadLimits(maximumDepth: 6))?.code == .limitExceeded)
        #expect(failure(nested, limits: LoadLimits(maximumDepth: 8)) == nil)
    }

    @Test func encodingProblemsHavePositions() throws {
        let invalid = try #require(failure(Array("a: 1\nb: x".utf8) + [0xFF, 0x0A]))
        #expect(invalid.code == .encoding)
        #expect(invalid.message.contains("UTF-8"))
        #expect(invalid.position?.line == 2)
        let nul = try #require(failure(Array("a: 1\nbc: d".utf8) + [0] + Array("\n".utf8)))
        #expect(nul.code == .encoding)
        #expect(nul.position == SourcePosition(line: 2, column: 6))
        let utf16 = try #require(failure([0xFF, 0xFE] + Array("a: 1".utf8).flatMap { [$0, 0] }))
        #expect(utf16.message.contains("UTF-16"))
        let control = try #require(failure(Array("a: b".utf8) + [0x01] + Array("\n".utf8)))
        #expect(control.code == .encoding)
    }

    @Test func tabsInIndentationAreExplained() throws {
        let error = try #require(failure("a:\n\tb: 1\n"))
        #expect(error.code == .yamlSyntax)
        #expect(error.message.contains("tab"))
        #expect(error.position?.line == 2)
    }

    @Test func sizeLimitAndSyntaxErrors() throws {
        let tooLarge = failure("a: 1\n", limits: LoadLimits(maximumBytes: 3))
        #expect(tooLarge?.limit == .fileSize)
        #expect(tooLarge?.message == "file is 5 bytes, over the limit of 3")
        let syntax = try #require(failure("a: [1, 2\nb: 3\n"))
        #expect(syntax.code == .yamlSyntax)
        #expect(failure("a: 1\n---\nb: 2\n")?.message.contains("one YAML document") == true)
    }
}
