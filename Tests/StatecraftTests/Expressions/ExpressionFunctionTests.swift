import Testing

@testable import Statecraft

/// The expression language's functions: `string`, `int`, `double`, `min`, `max`, `abs`, `len`,
/// checked when a machine loads and evaluated by the runner.
struct ExpressionFunctionTests {
    let scope = ExpressionScope(
        variables: [
            "count": (0, .int), "ratio": (1, .double), "ready": (2, .bool), "name": (3, .string),
            "position": (4, ExpressionType(.string, nullable: true)), "len": (5, .int), "big": (6, .double),
        ],
        argumentType: .string, argumentUnavailable: "no argument here")
    let context: [Value] = [.int(3), .double(-2.75), .bool(true), .string("car"), .null, .int(7), .double(1e300)]

    func checked(_ text: String) throws -> (CompiledExpression, ExpressionType) {
        try ExpressionChecker.check(try ExpressionParser.parse(text), in: scope)
    }

    func evaluate(_ text: String, argument: Value = .string("42")) throws -> Value {
        try checked(text).0.evaluate(context, argument: argument)
    }

    func typeError(_ text: String) -> ExpressionTypeError? {
        do {
            _ = try checked(text)
            return nil
        } catch let error as ExpressionTypeError {
            return error
        } catch {
            return nil
        }
    }

    @Test func stringPrintsValuesAsSmrunDoes() throws {
        #expect(try evaluate("string(count)") == .string("3"))
        #expect(try evaluate("string(ratio)") == .string("-2.75"))
        #expect(try evaluate("string(2.0)") == .string("2.0"), "a whole double keeps its '.0', as in smrun's JSON")
        #expect(try evaluate("string(big)") == .string("1e+300"))
        #expect(try evaluate("string(ready)") == .string("true"))
        #expect(try evaluate("string(position)") == .string("null"))
        #expect(try evaluate("string(name)") == .string("car"), "a string is itself, without quotes")
        #expect(try evaluate("\"gave up after \" + string(count) + \" tries\"") == .string("gave up after 3 tries"))
        #expect(try checked("string(position)").1 == .string, "string() never gives null")
    }

    @Test func intTruncatesTowardZeroAndReadsDecimalIntegers() throws {
        #expect(try evaluate("int(ratio)") == .int(-2))
        #expect(try evaluate("int(2.99)") == .int(2))
        #expect(try evaluate("int(count)") == .int(3))
        #expect(try evaluate("int(arg)") == .int(42))
        #expect(try evaluate("int(arg)", argument: .string("-9223372036854775808")) == .int(.min))
        #expect(try evaluate("int(arg)", argument: .string("+5")) == .int(5))
    }

    @Test(arguments: [
        ("int(big)", Value.string(""), "cannot convert 1e+300 to int (out of the int range)"),
        ("int(arg)", .string("abc"), "cannot convert \"abc\" to int (not a decimal integer)"),
        ("int(arg)", .string("1.5"), "cannot convert \"1.5\" to int (not a decimal integer)"),
        ("int(arg)", .string(" 1"), "cannot convert \" 1\" to int (not a decimal integer)"),
        ("int(arg)", .string(""), "cannot convert \"\" to int (not a decimal integer)"),
        ("int(arg)", .string("9223372036854775808"), "cannot convert \"9223372036854775808\" to int (out of the int range)"),
        ("double(arg)", .string("nan"), "cannot convert \"nan\" to double (not a finite decimal number)"),
        ("double(arg)", .string("1e999"), "cannot convert \"1e999\" to double (not a finite decimal number)"),
        ("double(arg)", .string("0x10"), "cannot convert \"0x10\" to double (not a finite decimal number)"),
    ])
    func failedConversionsAreEvaluationErrors(text: String, argument: Value, message: String) {
        #expect(throws: EvaluationError.conversion(message)) { try evaluate(text, argument: argument) }
    }

    @Test func notFiniteDoublesDoNotConvertToInt() throws {
        let (compiled, _) = try checked("int(ratio)")
        var context = self.context
        for value in [Double.nan, .infinity, -.infinity] {
            context[1] = .double(value)
            #expect(throws: EvaluationError.conversion("cannot convert \(value) to int (not a finite number)")) {
                try compiled.evaluate(context, argument: .null)
            }
        }
    }

    @Test func doubleWidensIntsAndReadsDecimalNumbers() throws {
        #expect(try evaluate("double(count)") == .double(3))
        #expect(try evaluate("double(arg)", argument: .string("-1.5e2")) == .double(-150))
        #expect(try evaluate("double(arg)") == .double(42))
        #expect(try checked("double(count)").1 == .double)
    }

    @Test func minMaxAndAbsKeepIntsInts() throws {
        #expect(try evaluate("min(count, len)") == .int(3))
        #expect(try evaluate("max(count, len)") == .int(7))
        #expect(try evaluate("min(count, ratio)") == .double(-2.75))
        #expect(try evaluate("max(count, ratio)") == .double(3), "mixed: a double, even when the int is picked")
        #expect(try checked("max(count, ratio)").1 == .double)
        #expect(try checked("max(count, 1)").1 == .int)
        #expect(try evaluate("abs(-count)") == .int(3))
        #expect(try evaluate("abs(ratio)") == .double(2.75))
        #expect(throws: EvaluationError.overflow) { try evaluate("abs(-9223372036854775807 - 1)") }
    }

    @Test func lenCountsCharacters() throws {
        #expect(try evaluate("len(name)") == .int(3))
        #expect(try evaluate("len(arg)", argument: .string("e\u{301}🇫🇷")) == .int(2), "a combining accent and a flag are one character each")
        #expect(try evaluate("len(\"\")") == .int(0))
    }

    @Test func aNameFollowedByAParenthesisIsACall() throws {
        #expect(try evaluate("len + 1") == .int(8), "a variable named like a function is still a variable")
        #expect(try evaluate("len(string(len))") == .int(1))
        #expect(try evaluate("abs (count - 10)") == .int(7), "blanks may come before '('")
        #expect(try evaluate("max(min(count, 5), abs(-4)) * 2") == .int(8))
    }

    @Test func nullableArgumentsGiveNullableResultsAndFailOnNull() throws {
        #expect(try checked("len(position)").1 == ExpressionType(.int, nullable: true))
        #expect(throws: EvaluationError.nullOperand) { try evaluate("len(position)") }
    }

    @Test func wrongArgumentsAreTypeErrorsAtTheirColumn() throws {
        let wrongType = try #require(typeError("count + len(count * 2)"))
        #expect(wrongType.message == "len() takes a string or a list, found int; write len(string or list)")
        #expect(wrongType.offset == 12, "the argument's first column")
        #expect(typeError("int(ready)")?.message == "int() takes a number or a string, found bool; write int(number or string)")
        #expect(typeError("double(null)")?.message == "double() takes a number or a string, found null; write double(number or string)")
        #expect(typeError("min(count, name)")?.offset == 11)
        #expect(typeError("abs(name)")?.message == "abs() takes a number, found string; write abs(number)")
        let arity = try #require(typeError("1 + min(count)"))
        #expect(arity.message == "min() takes 2 arguments, found 1; write min(number, number)")
        #expect(arity.offset == 4)
        #expect(typeError("len()")?.message == "len() takes one argument, found 0; write len(string or list)")
        #expect(typeError("string(1, 2)") != nil)
    }

    @Test func unknownFunctionsSuggestTheClosest() throws {
        let unknown = try #require(typeError("ready && strng(count) > \"\""))
        #expect(unknown.message == "unknown function 'strng' (did you mean 'string'?); the functions are string, int, double, min, max, abs, len")
        #expect(unknown.offset == 9)
        #expect(typeError("arg(1)")?.message.hasPrefix("unknown function 'arg'") == true)
    }

    @Test func callSyntaxErrors() {
        func syntaxError(_ text: String) -> ExpressionSyntaxError? {
            do {
                _ = try ExpressionParser.parse(text)
                return nil
            } catch {
                return error
            }
        }
        #expect(syntaxError("min(1, 2")?.message == "expected ',' or ')' to close the '(' of min at column 4, found the end of the expression")
        #expect(syntaxError("min(1,)")?.message == "expected a value, a name, '(', '[', '!' or '-', found ')'")
        #expect(syntaxError("1, 2")?.message == "expected an operator or the end of the expression, found ','")
        #expect(syntaxError("min(" + String(repeating: "1, ", count: 300) + "1)")?.message.contains("more than 256 operators") == true)
        #expect(syntaxError(String(repeating: "abs(", count: 100_000))?.message.contains("nests deeper") == true)
    }

    /// A machine whose context has variables named like functions still loads and runs: the
    /// names are not reserved.
    @Test func variablesNamedLikeFunctionsStillWork() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "a", context: [ContextVariable("max", .int(5)), ContextVariable("len", .string("ab"))],
                inputs: [InputDeclaration("go")], states: [StateDeclaration("a")],
                effects: [EffectDefinition("grow", assignments: [.init("max", "max(max, 2) + len(len)"), .init("len", "len + \"!\"")])],
                transitions: [TransitionDefinition("go", from: .states(["a"]), to: nil, when: "max < 100", effects: ["grow"])]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("go", into: &recorder)
        #expect(runner.context == [.int(7), .string("ab!")])
    }

    /// Through the runner: a converted value is stored; a failed conversion rejects the input
    /// with `expression-error` and changes nothing.
    @Test func theRunnerStoresResultsAndRejectsFailedConversions() throws {
        let machine = try compile(
            MachineDefinition(
                name: "m", initial: "waiting",
                context: [ContextVariable("retries", .int(0)), ContextVariable("log", .string(""))],
                inputs: [InputDeclaration("retry", argumentType: .string), InputDeclaration("giveUp")],
                states: [StateDeclaration("waiting"), StateDeclaration("failed", isFinal: true)],
                effects: [
                    EffectDefinition("count", assignments: [.init("retries", "retries + int(arg)")]),
                    EffectDefinition("report", assignments: [.init("log", "\"gave up after \" + string(retries) + \" retries\"")]),
                ],
                transitions: [
                    TransitionDefinition("retry", from: .states(["waiting"]), to: nil, when: "len(arg) <= 3", effects: ["count"]),
                    TransitionDefinition("giveUp", from: .states(["waiting"]), to: "failed", effects: ["report"]),
                ]))
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("retry", .string("2"), into: &recorder)
        runner.send("retry", .string("two"), into: &recorder)
        runner.send("retry", .string("1000"), into: &recorder)
        runner.send("giveUp", into: &recorder)
        #expect(recorder.entries.map { $0.result.rejection?.rawValue ?? "ok" } == ["ok", "expression-error", "guard-rejected", "ok"])
        #expect(recorder.entries[1].result.evaluationError == .conversion("cannot convert \"two\" to int (not a decimal integer)"))
        #expect(recorder.entries[1].context == [.int(2), .string("")], "nothing changed")
        #expect(runner.context == [.int(2), .string("gave up after 2 retries")])
    }
}
