/// A function of the expression language, called as `name(argument, ...)`: conversions between
/// value types, `min`, `max`, `abs` and a string's length.
///
/// A name followed by `(` is a call, so a context variable may share a function's name
/// (`len(len)` is the length of the variable `len`). Each function's argument types are
/// checked when the machine loads; a value it cannot convert is an `expression-error` at run time.
package enum BuiltinFunction: String, Hashable, Sendable, CaseIterable {
    /// `string(x)`: any value as text, as smrun prints values (`1.5`, `2.0`, `1e+300`, `true`,
    /// `null`, a list as JSON: `[1,2]`); a string is itself, without quotes.
    case string
    /// `int(x)`: a double truncated toward zero, or a string read as a decimal integer with an
    /// optional sign (as a script reads an int argument).
    case int
    /// `double(x)`: an int as a double, or a string read as a finite decimal number (as a script
    /// reads a double argument).
    case double
    /// `min(a, b)`: the smaller of two numbers; an int when both are ints.
    case min
    /// `max(a, b)`: the larger of two numbers; an int when both are ints.
    case max
    /// `abs(x)`: a number's magnitude, of the number's type.
    case abs
    /// `len(s)`: a string's length in characters (grapheme clusters, as Swift counts them), or
    /// a list's number of items.
    case len

    /// How many arguments the function takes.
    package var arity: Int { self == .min || self == .max ? 2 : 1 }

    /// How a call is written, for messages: `min(a, b)`.
    var signature: String {
        switch self {
        case .string: "string(value)"
        case .int: "int(number or string)"
        case .double: "double(number or string)"
        case .min, .max: "\(rawValue)(number, number)"
        case .abs: "abs(number)"
        case .len: "len(string or list)"
        }
    }

    /// Every function's name, for a message about an unknown one.
    static let names = allCases.map(\.rawValue)
}

// MARK: - Types

extension BuiltinFunction {
    /// The type of a call whose arguments have `types` (as many as ``arity``), or what is wrong
    /// with the argument at an index. A nullable argument makes the result nullable, as it does
    /// for operators (a null is an `expression-error` when the call runs), except for `string`,
    /// which turns null into `"null"`.
    func resultType(_ types: [ExpressionType]) -> Result<ExpressionType, ArgumentProblem> {
        let nullable = types.contains { $0.isNullable }
        func problem(_ index: Int, _ expected: String) -> Result<ExpressionType, ArgumentProblem> {
            .failure(ArgumentProblem(index: index, message: "\(rawValue)() takes \(expected), found \(types[index]); write \(signature)"))
        }
        switch self {
        case .string:
            return .success(.string)
        case .int, .double:
            let base = types[0].base
            guard base.isNumber || base == .string else { return problem(0, "a number or a string") }
            return .success(ExpressionType(self == .int ? .int : .double, nullable: nullable))
        case .min, .max:
            for index in types.indices where !types[index].base.isNumber { return problem(index, "two numbers") }
            let base: ValueType = types.allSatisfy { $0.base == .int } ? .int : .double
            return .success(ExpressionType(base, nullable: nullable))
        case .abs:
            guard types[0].base.isNumber else { return problem(0, "a number") }
            return .success(ExpressionType(types[0].base, nullable: nullable))
        case .len:
            guard types[0].base == .string || types[0].base == .list else { return problem(0, "a string or a list") }
            return .success(ExpressionType(.int, nullable: nullable))
        }
    }

    /// An argument of the wrong type: which one, and why.
    struct ArgumentProblem: Error {
        var index: Int
        var message: String
    }
}

// MARK: - Evaluation

extension BuiltinFunction {
    /// The function applied to its arguments (`second` is ignored by one-argument functions).
    /// Allocates only to make text (`string`) or to read one (`int`, `double`).
    func apply(_ first: Value, _ second: Value) throws(EvaluationError) -> Value {
        switch self {
        case .string:
            return .string(Self.text(of: first))
        case .int:
            switch first {
            case .int: return first
            case .double(let d): return .int(try Self.truncated(d))
            case .string(let s):
                guard let value = Self.decimalInteger(s) else {
                    let digits = s.utf8.dropFirst(s.hasPrefix("-") || s.hasPrefix("+") ? 1 : 0)
                    let why = !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                        ? "out of the int range" : "not a decimal integer"
                    throw .conversion("cannot convert \(JSONText.quoted(Self.excerpt(s))) to int (\(why))")
                }
                return .int(value)
            default: throw .nullOperand
            }
        case .double:
            switch first {
            case .int(let i): return .double(Double(i))
            case .double: return first
            case .string(let s):
                guard let value = Self.decimalNumber(s) else {
                    throw .conversion("cannot convert \(JSONText.quoted(Self.excerpt(s))) to double (not a finite decimal number)")
                }
                return .double(value)
            default: throw .nullOperand
            }
        case .min, .max:
            let pickFirst: Bool
            switch (first, second) {
            case (.int(let a), .int(let b)):
                return .int(self == .min ? Swift.min(a, b) : Swift.max(a, b))
            case (.int(let a), .double(let b)): pickFirst = self == .min ? Double(a) <= b : Double(a) >= b
            case (.double(let a), .int(let b)): pickFirst = self == .min ? a <= Double(b) : a >= Double(b)
            case (.double(let a), .double(let b)): pickFirst = self == .min ? a <= b : a >= b
            default: throw .nullOperand
            }
            switch pickFirst ? first : second {
            case .int(let i): return .double(Double(i))
            case let chosen: return chosen
            }
        case .abs:
            switch first {
            case .int(let i):
                guard i != .min else { throw .overflow }
                return .int(Swift.abs(i))
            case .double(let d): return .double(Swift.abs(d))
            default: throw .nullOperand
            }
        case .len:
            switch first {
            case .string(let s): return .int(s.count)
            case .list(let items): return .int(items.count)
            default: throw .nullOperand
            }
        }
    }

    /// A value as text: what smrun prints for it, a string without its quotes.
    static func text(of value: Value) -> String {
        switch value {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): d.description
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        case .list, .record: value.jsonText
        }
    }

    private static func truncated(_ d: Double) throws(EvaluationError) -> Int {
        guard d.isFinite else { throw .conversion("cannot convert \(d.description) to int (not a finite number)") }
        guard let value = Int(exactly: d.rounded(.towardZero)) else {
            throw .conversion("cannot convert \(d.description) to int (out of the int range)")
        }
        return value
    }

    /// Digits with an optional sign, in range: what a script accepts for an int argument.
    static func decimalInteger(_ s: String) -> Int? {
        var utf8 = Substring(s).utf8
        var negative = false
        if let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            utf8 = utf8.dropFirst()
        }
        guard !utf8.isEmpty else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
        }
        return value
    }

    /// Digits with an optional sign, fraction and exponent, finite (no `nan`, `inf` or hex): what
    /// a script accepts for a double argument.
    static func decimalNumber(_ s: String) -> Double? {
        guard !s.isEmpty, s.utf8.count < 400,
            s.utf8.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || "+-.eE".utf8.contains($0) }),
            let value = Double(s), value.isFinite
        else { return nil }
        return value
    }

    /// A long string cut for a message.
    private static func excerpt(_ s: String) -> String {
        s.count > 40 ? s.prefix(37) + "..." : s
    }
}
