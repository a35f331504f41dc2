import Statecraft
import Testing

@testable import StatecraftYAML

/// Lists as context values and input data with named fields in machine files
/// (docs/machine-files.md#lists-and-input-data): what loads, and each bad use's error.
struct ListAndDataDecodingTests {
    func load(context: String, effects: String = "  e: { set: { n: n } }", inputs: String = "{ go: int, done: }") -> LoadResult {
        YAMLFile.load(
            bytes: Array(
                """
                initial: a
                context:
                \(context)
                inputs: \(inputs)
                states: [a]
                effects:
                \(effects)
                transitions:
                  - go | a | e
                  - done | a | f
                """.utf8), defaultName: "test")
    }

    /// `code@line:column: message` for each error.
    func problems(_ loaded: LoadResult) -> [String] {
        loaded.diagnostics.filter { $0.severity == .error }.map {
            "\($0.code.rawValue)@\($0.position.map(\.description) ?? "file"): \($0.message)"
        }
    }

    @Test func aSequenceIsAListOfOneItemType() throws {
        let loaded = load(context: "  n: 0\n  primes: [2, 3, 5]\n  weights:\n    - 1\n    - 2.5\n  words: [a, 'b c']\n  none: []",
            effects: "  e: { set: { n: n } }\n  f: { set: { none: '[1, 2]' } }")
        #expect(problems(loaded).isEmpty, "\(problems(loaded))")
        let machine = try #require(loaded.machine)
        #expect(machine.initialContext == [
            .int(0), .list([.int(2), .int(3), .int(5)]), .list([.double(1), .double(2.5)]),
            .list([.string("a"), .string("b c")]), .list([]),
        ])
        #expect(machine.variableTypes.map(\.description) == ["int", "[int]", "[double]", "[string]", "[int]"],
            "a variable that starts empty takes the list type assigned to it")
    }

    @Test func badListsAreErrorsAtTheItem() {
        #expect(problems(load(context: "  n: 0\n  mixed: [1, true]")) == [
            "invalid-value@4:14: context variable 'mixed': a list's items are of one type, but it mixes bool and int"
        ])
        #expect(problems(load(context: "  n: 0\n  nested: [[1], [2]]")) == [
            "wrong-kind@4:12: context variable 'nested' is a list of ints, doubles, bools or strings; an item cannot be a list"
        ])
        #expect(problems(load(context: "  n: 0\n  holes: [1, ~]")) == [
            "invalid-value@4:14: context variable 'holes': a list holds ints, doubles, bools or strings, not null"
        ])
        #expect(problems(load(context: "  n: 0\n  m: { a: 1 }")).first?.hasPrefix(
            "wrong-kind@4:6: context variable 'm' needs an int, double, bool, string, null or list initial value, not a mapping") == true)
    }

    @Test func aSendsDataNamesFieldsThatArgReads() throws {
        let loaded = load(
            context: "  n: 2\n  got: ''",
            effects: "  e: { send: { input: done, data: { size: 'n * 2', label: '\"big\"' } } }\n  f: { set: { got: 'arg.label + string(arg.size)' } }")
        #expect(problems(loaded).isEmpty, "\(problems(loaded))")
        let definition = try #require(loaded.definition)
        guard case .send(let send) = definition.effects[0].steps[0] else {
            Issue.record("not a send")
            return
        }
        #expect(send.data.map(\.name.name) == ["size", "label"])
        #expect(send.data.map(\.expression.text) == ["n * 2", "\"big\""])
        #expect(loaded.machine?.argumentTypes[1] == nil, "an input sent with data takes no argument from a script")
    }

    @Test func badDataIsAnErrorWhereItIsWritten() {
        let context = "  n: 2\n  got: ''"
        #expect(problems(load(context: context, effects: "  e: { send: { input: done, data: [n] } }\n  f:")) == [
            "wrong-kind@8:35: 'data' is a mapping of field names to expressions, not a list"
        ])
        #expect(problems(load(context: context, effects: "  e: { send: { input: done, data: { 2x: n } } }\n  f:")) == [
            "invalid-name@8:37: field name '2x' must be letters, digits and '_', not starting with a digit"
        ])
        #expect(problems(load(context: context, effects: "  e: { send: { input: go, data: { x: n } } }\n  f:")) == [
            "argument-type@8:35: input 'go' takes a int argument, sent with 'arg', not 'data'"
        ])
        #expect(problems(load(context: context, effects: "  e: { send: { input: done, data: { x: n }, arg: n } }\n  f:")) == [
            "invalid-value@8:50: a send has an 'arg' or 'data', not both"
        ])
        #expect(problems(load(context: context, effects: "  e: { send: { input: done, data: { x: n, x: n } } }\n  f:")).first?.hasPrefix(
            "duplicate-key@8:43") == true)
        #expect(problems(load(context: context, effects: "  e: { send: { input: done, data: { x: n } } }\n  f: { set: { got: arg.y } }")) == [
            "expression-type@9:23: in the value of 'got' 'arg.y': no send gives an input's data the field 'y'; the fields are x"
        ])
        #expect(problems(load(context: context, effects: "  e: { send: { input: done, data: { x: n } } }\n  f: { set: { got: n.x } }")) == [
            "expression-type@9:21: in the value of 'got' 'n.x': '.x' reads a field of the input's data, written arg.x; this is int, which has no fields"
        ])
        #expect(problems(load(context: context, effects: "  e: [{ send: { input: done, data: { x: n } } }, { send: { input: done, data: { x: got } } }]\n  f:")) == [
            "expression-type@8:84: in the field 'x' of the data sent to 'done' 'got': expected a value of type int, found string"
        ])
    }

    @Test func aForeachOverAListTakesItsItems() throws {
        let loaded = load(
            context: "  n: 0\n  i: 0\n  primes: [2, 3, 5]",
            effects: "  e: { foreach: { array: primes, item: n, index: i } }\n  f: { foreach: { array: '[1.5]', item: n } }")
        #expect(problems(loaded) == [
            "expression-type@10:41: the item of 'foreach' is a double, but context variable 'n' is int"
        ])
    }

    @Test func aForeachOverABoolOrWithAnUndeclaredItemIsAnError() {
        let loaded = load(
            context: "  n: 0\n  flag: true",
            effects: "  e: { foreach: { array: flag, item: n } }\n  f: { foreach: { array: '[1]', item: fresh } }")
        #expect(problems(loaded) == [
            "expression-type@8:26: 'foreach' iterates a list (its items), an int (0 to n - 1) or a string (its characters), but 'flag' is bool",
            "undefined-variable@9:39: effect 'f' loops with undefined context variable 'fresh' as its item; declare it under 'context'",
        ])
    }
}
