/// A type-checked expression with variables resolved to context slots, ready to evaluate.
package indirect enum CompiledExpression: Sendable {
    case constant(Value)
    case variable(Int)
    case argument
    case not(CompiledExpression)
    case negate(CompiledExpression)
    case and(CompiledExpression, CompiledExpression)
    case or(CompiledExpression, CompiledExpression)
    case equal(CompiledExpression, CompiledExpression, negated: Bool)
    case order(Expression.BinaryOperator, CompiledExpression, CompiledExpression)
    case arithmetic(Expression.BinaryOperator, CompiledExpression, CompiledExpression)
    case concatenate(CompiledExpression, CompiledExpression)
    case toDouble(CompiledExpression)
    /// The operand's value, which must not be null (a nullable value stored where null is not
    /// allowed, under `on_error: raise`).
    case nonNull(CompiledExpression)
    /// A function applied to its arguments (as many as it takes).
    case call(BuiltinFunction, [CompiledExpression])
    /// A list of the items' values (not all constants; a list of constants is a `constant`).
    case list([CompiledExpression])
    /// A list's item at an int index.
    case index(CompiledExpression, CompiledExpression)
    /// A field of the input's data (a ``Value/Record``).
    case field(CompiledExpression, String)
    /// An input's data: a ``Value/Record`` of the fields' values, in order (a send's `data`).
    case record(names: [String], values: [CompiledExpression])
    /// A condition written in Swift (a guard of a machine built with the typed API), which
    /// the host evaluates; never produced from a machine file.
    case host(HostCondition)
    /// An expression that did not compile, under `on_error: raise`: it fails with the message
    /// when it runs.
    case invalid(String)
}

/// Why an expression could not be evaluated (the result `expression-error`, docs/semantics.md).
public enum EvaluationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Division or remainder by zero.
    case divisionByZero
    /// An integer result out of range.
    case overflow
    /// A `null` where a value was needed.
    case nullOperand
    /// A function could not convert its argument (`int("abc")`, `int(1e300)`); the message says which.
    case conversion(String)
    /// A `foreach` over more items than its limit (the runner's step limit).
    case tooManyIterations(count: Int, limit: Int)
    /// A list indexed outside its items.
    case indexOutOfRange(index: Int, count: Int)
    /// `arg.NAME` where the input's data has no field NAME (or the input has no data).
    case missingField(String)
    /// A step that loading found wrong (an expression that does not compile, an undeclared
    /// variable, a send to a target the machine cannot reach), run under `on_error: raise`;
    /// the message says what.
    case invalid(String)

    /// What went wrong, in words.
    public var description: String {
        switch self {
        case .divisionByZero: "division by zero"
        case .overflow: "arithmetic overflow"
        case .nullOperand: "a null value used as a number, string, bool or list"
        case .conversion(let message): message
        case .tooManyIterations(let count, let limit): "foreach over \(count) items passes the step limit of \(limit)"
        case .indexOutOfRange(let index, let count):
            "index \(index) is out of range: the list has \(count) item\(count == 1 ? "" : "s")\(count == 0 ? "" : ", indexed 0 to \(count - 1)")"
        case .missingField(let name): "the input's data has no field '\(name)'"
        case .invalid(let message): message
        }
    }
}

extension CompiledExpression {
    /// Evaluates against the context slots and the input's argument. Allocates only to make
    /// strings (joined with `+`, or by `string()`).
    package func evaluate(_ context: [Value], argument: Value) throws(EvaluationError) -> Value {
        switch self {
        case .constant(let value): return value
        case .variable(let slot): return context[slot]
        case .argument: return argument
        case .host(let condition): return .bool(condition.holds(context, argument))
        case .invalid(let message): throw .invalid(message)
        case .not(let operand):
            return .bool(!(try operand.evaluateBool(context, argument)))
        case .negate(let operand):
            switch try operand.evaluate(context, argument: argument) {
            case .int(let i):
                let (result, overflow) = Int(0).subtractingReportingOverflow(i)
                if overflow { throw .overflow }
                return .int(result)
            case .double(let d): return .double(-d)
            default: throw .nullOperand
            }
        case .and(let lhs, let rhs):
            guard try lhs.evaluateBool(context, argument) else { return .bool(false) }
            return .bool(try rhs.evaluateBool(context, argument))
        case .or(let lhs, let rhs):
            if try lhs.evaluateBool(context, argument) { return .bool(true) }
            return .bool(try rhs.evaluateBool(context, argument))
        case .equal(let lhs, let rhs, let negated):
            let equal = Self.equal(try lhs.evaluate(context, argument: argument), try rhs.evaluate(context, argument: argument))
            return .bool(equal != negated)
        case .order(let op, let lhs, let rhs):
            return .bool(try Self.order(op, try lhs.evaluate(context, argument: argument), try rhs.evaluate(context, argument: argument)))
        case .arithmetic(let op, let lhs, let rhs):
            return try Self.arithmetic(op, try lhs.evaluate(context, argument: argument), try rhs.evaluate(context, argument: argument))
        case .concatenate(let lhs, let rhs):
            guard case .string(let a) = try lhs.evaluate(context, argument: argument),
                case .string(let b) = try rhs.evaluate(context, argument: argument)
            else { throw .nullOperand }
            return .string(a + b)
        case .nonNull(let operand):
            let value = try operand.evaluate(context, argument: argument)
            if case .null = value { throw .nullOperand }
            return value
        case .toDouble(let operand):
            switch try operand.evaluate(context, argument: argument) {
            case .int(let i): return .double(Double(i))
            case let other: return other
            }
        case .call(let function, let arguments):
            let first = try arguments[0].evaluate(context, argument: argument)
            let second = arguments.count > 1 ? try arguments[1].evaluate(context, argument: argument) : .null
            return try function.apply(first, second)
        case .list(let items):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items {
                let value = try item.evaluate(context, argument: argument)
                if case .null = value { throw .nullOperand }
                values.append(value)
            }
            return .list(values)
        case .index(let list, let index):
            guard case .list(let items) = try list.evaluate(context, argument: argument),
                case .int(let position) = try index.evaluate(context, argument: argument)
            else { throw .nullOperand }
            guard items.indices.contains(position) else { throw .indexOutOfRange(index: position, count: items.count) }
            return items[position]
        case .field(let record, let name):
            guard case .record(let data) = try record.evaluate(context, argument: argument), let value = data[name] else {
                throw .missingField(name)
            }
            return value
        case .record(let names, let values):
            var fields: [Value.Record.Field] = []
            fields.reserveCapacity(names.count)
            for (name, value) in zip(names, values) {
                let field = try value.evaluate(context, argument: argument)
                if case .null = field { throw .nullOperand }
                fields.append(Value.Record.Field(name, field))
            }
            return .record(Value.Record(fields))
        }
    }

    private func evaluateBool(_ context: [Value], _ argument: Value) throws(EvaluationError) -> Bool {
        guard case .bool(let b) = try evaluate(context, argument: argument) else { throw .nullOperand }
        return b
    }

    private static func equal(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int(let x), .double(let y)): Double(x) == y
        case (.double(let x), .int(let y)): x == Double(y)
        case (.list(let x), .list(let y)): x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        default: a == b
        }
    }

    private static func order(_ op: Expression.BinaryOperator, _ a: Value, _ b: Value) throws(EvaluationError) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return compare(op, x, y)
        case (.string(let x), .string(let y)): return compare(op, x, y)
        case (.int(let x), .double(let y)): return compare(op, Double(x), y)
        case (.double(let x), .int(let y)): return compare(op, x, Double(y))
        case (.double(let x), .double(let y)): return compare(op, x, y)
        default: throw .nullOperand
        }
    }

    private static func compare<T: Comparable>(_ op: Expression.BinaryOperator, _ x: T, _ y: T) -> Bool {
        switch op {
        case .less: x < y
        case .lessOrEqual: x <= y
        case .greater: x > y
        default: x >= y
        }
    }

    private static func arithmetic(_ op: Expression.BinaryOperator, _ a: Value, _ b: Value) throws(EvaluationError) -> Value {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            let (result, overflow): (Int, Bool)
            switch op {
            case .add: (result, overflow) = x.addingReportingOverflow(y)
            case .subtract: (result, overflow) = x.subtractingReportingOverflow(y)
            case .multiply: (result, overflow) = x.multipliedReportingOverflow(by: y)
            default:
                if y == 0 { throw .divisionByZero }
                (result, overflow) = x.dividedReportingOverflow(by: y)
            }
            if overflow { throw .overflow }
            return .int(result)
        case (.int(let x), .double(let y)): return try doubleArithmetic(op, Double(x), y)
        case (.double(let x), .int(let y)): return try doubleArithmetic(op, x, Double(y))
        case (.double(let x), .double(let y)): return try doubleArithmetic(op, x, y)
        default: throw .nullOperand
        }
    }

    private static func doubleArithmetic(_ op: Expression.BinaryOperator, _ x: Double, _ y: Double) throws(EvaluationError) -> Value {
        let result: Double
        switch op {
        case .add: result = x + y
        case .subtract: result = x - y
        case .multiply: result = x * y
        default:
            if y == 0 { throw .divisionByZero }
            result = x / y
        }
        if !result.isFinite { throw .overflow }
        return .double(result)
    }
}
