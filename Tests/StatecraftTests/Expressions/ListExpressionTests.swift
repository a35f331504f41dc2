import Testing

@testable import Statecraft

/// Lists in the expression language (docs/machine-files.md): literals, `len`, indexing,
/// equality; and `arg.NAME`, a field of an input's data.
struct ListExpressionTests {
    let scope: ExpressionScope = {
        var scope = ExpressionScope(
            variables: [
                "primes": (0, .list(of: .int)), "words": (1, .list(of: .string)), "count": (2, .int),
                "maybe": (3, ExpressionType(.list, nullable: true, element: .int)),
            ],
            argumentType: nil, argumentUnavailable: "no argument here")
        scope.dataFields = ["amount": .int, "label": .string]
        return scope
    }()
    let context: [Value] = [.list([.int(2), .int(3), .int(5)]), .list([.string("a"), .string("b")]), .int(1), .null]

    func evaluate(_ text: String, argument: Value = .null) throws -> Value {
        let (compiled, _) = try ExpressionChecker.check(try ExpressionParser.parse(text), in: scope)
        return try compiled.evaluate(context, argument: argument)
    }

    func type(_ text: String) throws -> String {
        try ExpressionChecker.check(try ExpressionParser.parse(text), in: scope).1.description
    }

    func typeError(_ text: String) -> ExpressionTypeError? {
        do {
            _ = try ExpressionChecker.check(try ExpressionParser.parse(text), in: scope)
            return nil
        } catch let error as ExpressionTypeError {
            return error
        } catch {
            return nil
        }
    }

    func evaluationError(_ text: String, argument: Value = .null) -> EvaluationError? {
        do {
            _ = try evaluate(text, argument: argument)
            return nil
        } catch let error as EvaluationError {
            return error
        } catch {
            return nil
        }
    }

    @Test func literalsAreListsOfOneItemType() throws {
        #expect(try evaluate("[1, 2, 3]") == .list([.int(1), .int(2), .int(3)]))
        #expect(try type("[1, 2, 3]") == "[int]")
        #expect(try evaluate("[1, 2.5]") == .list([.double(1), .double(2.5)]), "ints among doubles are doubles")
        #expect(try type("['x', \"y\"]") == "[string]")
        #expect(try evaluate("[]") == .list([]))
        #expect(try type("[]") == "[]")
        #expect(try evaluate("[count, count + 1]") == .list([.int(1), .int(2)]), "items are expressions")
    }

    @Test func lengthIndexAndEquality() throws {
        #expect(try evaluate("len(primes)") == .int(3))
        #expect(try evaluate("len([])") == .int(0))
        #expect(try evaluate("primes[0] + primes[2]") == .int(7))
        #expect(try evaluate("words[count]") == .string("b"))
        #expect(try evaluate("[[7][0], 2][0]") == .int(7), "an item indexed out of a literal")
        #expect(try evaluate("primes == [2, 3, 5]") == .bool(true))
        #expect(try evaluate("primes != [2, 3]") == .bool(true))
        #expect(try evaluate("[1, 2] == [1.0, 2.0]") == .bool(true), "items compare as numbers")
        #expect(try evaluate("words == []") == .bool(false))
        #expect(try evaluate("string(primes)") == .string("[2,3,5]"))
        #expect(try evaluate("maybe == null") == .bool(true))
    }

    @Test func indexOutOfRangeSaysTheIndexAndTheSize() {
        #expect(evaluationError("primes[3]") == .indexOutOfRange(index: 3, count: 3))
        #expect(evaluationError("primes[-1]") == .indexOutOfRange(index: -1, count: 3))
        #expect(EvaluationError.indexOutOfRange(index: 3, count: 3).description == "index 3 is out of range: the list has 3 items, indexed 0 to 2")
        #expect(EvaluationError.indexOutOfRange(index: 0, count: 0).description == "index 0 is out of range: the list has 0 items")
        #expect(evaluationError("maybe[0]") == .nullOperand)
    }

    @Test func badListsAreTypeErrorsAtTheItem() {
        #expect(typeError("[1, 'two']")?.message == "a list's items are of one type: the first is int, this one string")
        #expect(typeError("[1, 'two']")?.offset == 4)
        #expect(typeError("[[1]]")?.message == "a list holds ints, doubles, bools or strings, found [int]")
        #expect(typeError("[null]")?.message == "a list holds ints, doubles, bools or strings, found null")
        #expect(typeError("count[0]")?.message == "'[...]' takes an item of a list, but this is int")
        #expect(typeError("primes['a']")?.message == "a list's index is an int, found string")
        #expect(typeError("primes == words")?.message == "'==' needs operands of one type, found [int] == [string]")
        #expect(typeError("primes + 1")?.message == "'+' needs two numbers, found [int] + int")
        #expect(typeError("len(count)")?.message == "len() takes a string or a list, found int; write len(string or list)")
    }

    @Test func listsParseWithTheirErrors() {
        #expect(throws: ExpressionSyntaxError.self) { try ExpressionParser.parse("[1, 2") }
        #expect(throws: ExpressionSyntaxError.self) { try ExpressionParser.parse("primes[0") }
        #expect(throws: ExpressionSyntaxError.self) { try ExpressionParser.parse("arg.") }
        #expect(throws: ExpressionSyntaxError.self) { try ExpressionParser.parse("[1,, 2]") }
    }

    @Test func fieldsOfAnInputsData() throws {
        let data = Value.record(Value.Record([.init("amount", .int(4)), .init("label", .string("x"))]))
        #expect(try evaluate("arg.amount * 2", argument: data) == .int(8))
        #expect(try type("arg.label") == "string")
        #expect(evaluationError("arg.amount", argument: .record(Value.Record([]))) == .missingField("amount"))
        #expect(evaluationError("arg.amount") == .missingField("amount"), "an input sent without data")
        #expect(EvaluationError.missingField("amount").description == "the input's data has no field 'amount'")
    }

    @Test func fieldErrorsSayWhatIsWrong() {
        #expect(typeError("arg.amout")?.message == "no send gives an input's data the field 'amout' (did you mean 'amount'?); the fields are amount, label")
        #expect(typeError("count.amount")?.message == "'.amount' reads a field of the input's data, written arg.amount; this is int, which has no fields")
        #expect(typeError("count.amount")?.offset == 5)
        var scalarArgument = scope
        scalarArgument.argumentType = .int
        do {
            _ = try ExpressionChecker.check(try ExpressionParser.parse("arg.amount"), in: scalarArgument)
            Issue.record("arg.amount checked where arg is an int")
        } catch let error as ExpressionTypeError {
            #expect(error.message == "'arg.amount': arg is int, not data with fields")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func valuesOfListsAndRecordsAsText() {
        let list = Value.list([.string("a"), .string("b")])
        #expect(list.description == "[\"a\", \"b\"]")
        #expect(list.jsonText == "[\"a\",\"b\"]")
        let data = Value.record(Value.Record([.init("n", .int(1))]))
        #expect(data.description == "{\"n\": 1}")
        #expect(data.jsonText == "{\"n\":1}")
    }

    @Test func listsCheckedFromValues() {
        #expect((try? Value.list(checking: [.int(1), .double(0.5)]).get()) == .list([.double(1), .double(0.5)]))
        guard case .failure(let mixed) = Value.list(checking: [.int(1), .bool(true)]) else {
            Issue.record("a list of an int and a bool")
            return
        }
        #expect(mixed.index == 1)
        #expect(mixed.message == "a list's items are of one type, but it mixes bool and int")
        guard case .failure(let nested) = Value.list(checking: [.int(1), .list([])]) else {
            Issue.record("a nested list")
            return
        }
        #expect(nested.index == 1)
    }
}
