import Statecraft
import Testing

@testable import StatecraftYAML

/// Guards in the row form: `INPUT | FROM => TO [GUARD] | EFFECTS`, the guard ending the
/// FROM => TO part, its diagnostics at their column inside the row.
struct RowFormGuardTests {
    /// A machine whose transitions are `rows`, the first on line 5.
    func load(_ rows: String...) -> LoadResult { load(rows) }

    func load(_ rows: [String]) -> LoadResult {
        let text = "initial: a\ncontext: { x: 0, name: \"\" }\nstates: [a, b]\ntransitions:\n"
            + rows.map { "  - \($0)\n" }.joined()
        return YAMLFile.load(bytes: Array(text.utf8), defaultName: "test")
    }

    /// `code@line:column` for each diagnostic.
    func problems(_ rows: String...) -> [String] {
        load(rows).diagnostics.map { "\($0.code.rawValue)@\($0.position.map(\.description) ?? "file")" }
    }

    @Test func aGuardEndsTheFromToPart() throws {
        let result = load(
            "go | a => b [x > 0] | effect",
            "go | a [x < 0]",
            "go | a, b => a [ x == 0 ]",
            "back | b => a [name == \"|]\" || x > 1]",
            "stop | * [x > 9] | effect")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let definition = try #require(result.definition)
        #expect(definition.transitions.map { $0.guardExpression?.text } == [
            "x > 0", "x < 0", "x == 0", "name == \"|]\" || x > 1", "x > 9",
        ])
        #expect(definition.transitions.map { $0.target?.name } == ["b", nil, "a", "a", nil])
        #expect(definition.transitions.map(\.effects.count) == [1, 0, 0, 0, 1])
        #expect(definition.transitions.map { $0.guardExpression?.position.column } == [18, 13, 22, 20, 15])
        let machine = try #require(result.machine)
        #expect(machine.transitions.map(\.guardText) == definition.transitions.map { $0.guardExpression?.text })
    }

    @Test func aBarInsideTheGuardDoesNotSplitTheRow() throws {
        let result = load("go | a => b [x > 0 || x < -5] | effect")
        let transition = try #require(result.definition?.transitions.first)
        #expect(transition.guardExpression?.text == "x > 0 || x < -5")
        #expect(transition.effects.map(\.name) == ["effect"])
    }

    @Test func guardDiagnosticsPointIntoTheRow() {
        // `  - go | a => b [x = 1]`: the '=' is column 20.
        #expect(problems("go | a => b [x = 1]") == ["expression-syntax@5:20"])
        // `  - go | a [name + 1 > 0] | e`: the '+' is column 18.
        #expect(problems("go | a [name + 1 > 0] | e") == ["expression-type@5:18"])
        #expect(problems("go | a => b [nmae == \"\"]") == ["undefined-variable@5:18"])
        #expect(problems("go | a => b []") == ["expression-syntax@5:18"])
    }

    @Test func misplacedGuardsAreInvalidRows() {
        #expect(problems("go [x > 0] | a => b") == ["invalid-row@5:8"])
        #expect(problems("go | a => b | e [x > 0]") == ["invalid-row@5:21"])
        #expect(problems("go | a [x > 0] => b") == ["invalid-row@5:20"])
        #expect(problems("go | a => b [x > 0] [x < 9]") == ["invalid-row@5:25"])
        #expect(problems("go | a => b [x > 0") == ["invalid-row@5:17"])
        #expect(problems("go | a => b [name == \"]\"") == ["invalid-row@5:17"], "a ']' in a string does not close the guard")
    }
}
