// Fuzzes the guard / assignment expression language (docs/machine-files.md): the input, as UTF-8 text, is
// parsed, type-checked in a fixed scope (context variables of every type, `arg` of every type or
// unavailable) and, when it checks, evaluated against several contexts. Besides crashes, it
// checks the type system's promise: a value computed from a checked expression has the type the
// checker gave it.
import FuzzSupport
import Statecraft

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parsed: Expression
    do {
        parsed = try ExpressionParser.parse(text)
    } catch {
        precondition(error.offset >= 0 && error.offset <= text.unicodeScalars.count, "syntax error offset out of range")
        return 0
    }
    _ = parsed.readsArgument
    for argumentType in [nil] + ValueType.argumentTypes {
        let scope = ExpressionScope(
            variables: Fixture.variables, argumentType: argumentType, argumentUnavailable: "the input takes no argument")
        let arguments = argumentType.map { Fixture.arguments[$0]! } ?? [.null]
        do {
            let (compiled, type) = try ExpressionChecker.check(parsed, in: scope)
            for context in Fixture.contexts {
                for argument in arguments { evaluate(compiled, context, argument, expecting: type, text) }
            }
        } catch {
            precondition(error.offset >= 0 && error.offset <= text.unicodeScalars.count, "type error offset out of range")
        }
        for expected in Fixture.storedTypes {
            guard let compiled = try? ExpressionChecker.check(parsed, in: scope, storedAs: expected) else { continue }
            evaluate(compiled, Fixture.contexts[0], arguments[0], expecting: expected, text)
        }
    }
    return 0
}

private func evaluate(_ compiled: CompiledExpression, _ context: [Value], _ argument: Value, expecting type: ExpressionType, _ text: String) {
    let value: Value
    do {
        value = try compiled.evaluate(context, argument: argument)
    } catch {
        return  // division by zero, overflow, a null operand: the result `expression-error`
    }
    let fits = value == .null ? type.isNullable : value.type == type.base
    precondition(fits, "'\(text)' was checked as \(type) but evaluated to \(value)")
}

/// The scope and contexts every input is checked and evaluated in.
private enum Fixture {
    static let variables: [String: (slot: Int, type: ExpressionType)] = [
        "i": (0, .int), "d": (1, .double), "b": (2, .bool), "s": (3, .string),
        "ni": (4, ExpressionType(.int, nullable: true)), "nd": (5, ExpressionType(.double, nullable: true)),
        "nb": (6, ExpressionType(.bool, nullable: true)), "ns": (7, ExpressionType(.string, nullable: true)),
        "z": (8, .null), "größe": (9, .int), "passengers": (10, .int), "location": (11, ExpressionType(.string, nullable: true)),
    ]

    /// Values for the slots above: ordinary, extreme and null where the type allows it.
    static let contexts: [[Value]] = [
        [.int(3), .double(2.5), .bool(true), .string("ab"), .int(7), .double(-1.5), .bool(false), .string(""), .null,
         .int(0), .int(4), .string("The Witches Brew")],
        [.int(.max), .double(1e308), .bool(false), .string(""), .null, .null, .null, .null, .null,
         .int(-1), .int(0), .null],
        [.int(.min), .double(-0.0), .bool(true), .string("é\u{301}"), .int(.min), .double(.leastNonzeroMagnitude), .bool(true),
         .string("ab"), .null, .int(.max), .int(-1), .string("")],
    ]

    static let arguments: [ValueType: [Value]] = [
        .int: [.int(0), .int(7), .int(.min)],
        .double: [.double(0), .double(-2.5), .double(1e300)],
        .bool: [.bool(true), .bool(false)],
        // Numeric strings, for int() and double() to convert.
        .string: [.string(""), .string("a\u{301}"), .string("-9223372036854775808"), .string("1.5e3")],
    ]

    static let storedTypes: [ExpressionType] =
        ValueType.argumentTypes.flatMap { [ExpressionType($0), ExpressionType($0, nullable: true)] } + [.null]
}

#if !FUZZING
    @main enum Main {
        static func main() { Reproducer.main("FuzzExpression", fuzzExpression) }
    }
#endif
