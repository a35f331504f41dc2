import Testing

@testable import Statecraft

/// The guard and assignment language (docs/machine-files.md): parsing, type checking, evaluation.
struct ExpressionTests {
    let scope = ExpressionScope(
        variables: [
            "count": (0, .int), "ratio": (1, .double), "ready": (2, .bool), "name": (3, .string),
            "position": (4, ExpressionType(.string, nullable: true)),
        ],
        argumentType: .int, argumentUnavailable: "no argument here")
    let context: [Value] = [.int(3), .double(0.5), .bool(true), .string("car"), .null]

    func evaluate(_ text: String, argument: Value = .int(10)) throws -> Value {
        let (compiled, _) = try ExpressionChecker.check(try ExpressionParser.parse(text), in: scope)
        return try compiled.evaluate(context, argument: argument)
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

    func syntaxError(_ text: String) -> ExpressionSyntaxError? {
        do {
            _ = try ExpressionParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func precedenceAndArithmetic() throws {
        #expect(try evaluate("1 + 2 * 3") == .int(7))
        #expect(try evaluate("(1 + 2) * 3") == .int(9))
        #expect(try evaluate("count * 2 + arg") == .int(16))
        #expect(try evaluate("7 / 2") == .int(3))
        #expect(try evaluate("-7 / 2") == .int(-3), "integer division truncates toward zero")
        #expect(try evaluate("count + ratio") == .double(3.5))
        #expect(try evaluate("-count") == .int(-3))
        #expect(try evaluate("1e3 + 0.5") == .double(1000.5))
    }

    @Test func comparisonsAndLogic() throws {
        #expect(try evaluate("count > 2 && ready") == .bool(true))
        #expect(try evaluate("!ready || count == 3") == .bool(true))
        #expect(try evaluate("count == 3.0") == .bool(true), "int and double compare as numbers")
        #expect(try evaluate("name == \"car\"") == .bool(true))
        #expect(try evaluate("name < 'cat'") == .bool(true))
        #expect(try evaluate("position == null") == .bool(true))
        #expect(try evaluate("position != null") == .bool(false))
        #expect(try evaluate("name + \"!\"") == .string("car!"))
        #expect(try evaluate("1 < 2 == true") == .bool(true))
    }

    @Test func shortCircuitSkipsTheRightSide() throws {
        #expect(try evaluate("false && 1 / 0 == 1") == .bool(false))
        #expect(try evaluate("true || 1 / 0 == 1") == .bool(true))
    }

    @Test func runtimeFailuresAreErrorsNotCrashes() {
        #expect(throws: EvaluationError.divisionByZero) { try evaluate("count / 0") }
        #expect(throws: EvaluationError.divisionByZero) { try evaluate("ratio / 0") }
        #expect(throws: EvaluationError.overflow) { try evaluate("9223372036854775807 + count") }
        #expect(throws: EvaluationError.overflow) { try evaluate("-9223372036854775807 - 2") }
        #expect(throws: EvaluationError.nullOperand) { try evaluate("position + \"x\"") }
    }

    @Test func typeErrorsNameTheOperandsAndColumn() throws {
        let mixed = try #require(typeError("count && ready"))
        #expect(mixed.message == "'&&' needs bools, found int && bool")
        #expect(mixed.offset == 6)
        #expect(typeError("name == 1")?.message == "'==' needs operands of one type, found string == int")
        #expect(typeError("name < 1")?.message == "'<' needs two numbers or two strings, found string < int")
        #expect(typeError("name - 1")?.message == "'-' needs two numbers, found string - int")
        #expect(typeError("!count")?.message == "'!' needs a bool, found int")
        #expect(typeError("count == null") != nil, "a non-nullable int is never null")
        let unknown = try #require(typeError("ready && cuont > 1"))
        #expect(unknown.message == "undefined context variable 'cuont' (did you mean 'count'?)")
        #expect(unknown.offset == 9)
    }

    @Test func argIsCheckedAgainstTheScope() {
        let noArgument = ExpressionScope(variables: [:], argumentType: nil, argumentUnavailable: "input 'park' takes no argument")
        #expect(throws: ExpressionTypeError.self) {
            try ExpressionChecker.check(try ExpressionParser.parse("arg > 1"), in: noArgument)
        }
    }

    @Test func syntaxErrorsPointAtTheProblem() throws {
        #expect(syntaxError("count = 1")?.message == "'=' is not an operator; compare with '=='")
        #expect(syntaxError("count = 1")?.offset == 6)
        #expect(syntaxError("ready & true")?.message == "'&' is not an operator; use '&&'")
        #expect(syntaxError("(count > 1")?.message == "expected ')' to close the '(' at column 1, found the end of the expression")
        #expect(syntaxError("count >")?.offset == 7)
        #expect(syntaxError("")?.message == "expected an expression, found nothing")
        #expect(syntaxError("\"open")?.message == "string is not closed by \"")
        #expect(syntaxError("99999999999999999999")?.message == "number '99999999999999999999' is out of range")
        #expect(syntaxError("1 2")?.message == "expected an operator or the end of the expression, found '2'")
        #expect(syntaxError("count $ 1")?.message == "unexpected character '$'")
    }

    @Test func deepNestingIsRefusedNotAStackOverflow() {
        #expect(syntaxError(String(repeating: "(", count: 100_000) + "1")?.message.contains("nests deeper") == true)
        #expect(syntaxError(String(repeating: "!", count: 100_000) + "true")?.message.contains("nests deeper") == true)
    }

    /// A chain of one operator (`n + 1 + 1 + ...`) is refused past a bound, as deep nesting is:
    /// checking and evaluating it would recurse once per operator. Found by building large
    /// inputs beside the FuzzExpression fuzz target.
    @Test func longOperatorChainsAreRefusedNotAStackOverflow() throws {
        #expect(syntaxError("count" + String(repeating: " + 1", count: 1_000_000))?.message.contains("more than 256 operators") == true)
        let longest = "count" + String(repeating: " + 1", count: 256)
        #expect(try evaluate(longest) == .int(259))
    }

    @Test func storingWidensIntToDoubleAndChecksNull() throws {
        let toDouble = try ExpressionChecker.check(try ExpressionParser.parse("count"), in: scope, storedAs: .double)
        #expect(try toDouble.evaluate(context, argument: .null) == .double(3))
        #expect(throws: ExpressionTypeError.self) {
            try ExpressionChecker.check(try ExpressionParser.parse("null"), in: scope, storedAs: .int)
        }
        _ = try ExpressionChecker.check(try ExpressionParser.parse("null"), in: scope, storedAs: ExpressionType(.string, nullable: true))
    }
}
