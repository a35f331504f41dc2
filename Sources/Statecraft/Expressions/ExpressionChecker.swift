/// A type error in an expression, at an offset into its text.
package struct ExpressionTypeError: Error, Hashable, Sendable {
    @usableFromInline package var message: String
    package var offset: Int
}

/// What an expression may refer to: the context's variables and the input's argument.
package struct ExpressionScope: Sendable {
    /// Context variables by name: their slot and type.
    package var variables: [String: (slot: Int, type: ExpressionType)]
    /// The argument's type, or `nil` when `arg` is not available here.
    package var argumentType: ValueType?
    /// Why `arg` is not available, for the error message (e.g. "input 'park' takes no argument").
    package var argumentUnavailable: String
    /// For `in(STATE)`: the slot after the variables that holds each tested state's activity.
    package var activitySlots: [String: Int] = [:]
    /// Every state's name, to say which states `in()` may test.
    package var stateNames: [String] = []
    /// For `input()`: the slot after the variables that holds the name of the input being
    /// processed, or `nil` when no expression of the machine calls it.
    package var inputNameSlot: Int?
    /// The fields that sends give inputs' data (`data:`, SCXML's `<param>`), each with its one
    /// type in the machine: what `arg.NAME` may read.
    package var dataFields: [String: ValueType] = [:]

    package init(variables: [String: (slot: Int, type: ExpressionType)], argumentType: ValueType?, argumentUnavailable: String) {
        self.variables = variables
        self.argumentType = argumentType
        self.argumentUnavailable = argumentUnavailable
    }
}

/// Type-checks expressions (docs/machine-files.md) and resolves their names.
package enum ExpressionChecker {
    /// `input()`: the name of the input being processed (SCXML's `_event.name`). A statechart's
    /// own slot, not a ``BuiltinFunction``: it reads the runner, not its arguments.
    package static let inputName = "input"

    /// Checks `expression` in `scope`, returning its compiled form and its type.
    package static func check(_ expression: Expression, in scope: ExpressionScope) throws(ExpressionTypeError)
        -> (CompiledExpression, ExpressionType)
    {
        switch expression {
        case .literal(let value, _):
            return (.constant(value), ExpressionType(of: value))
        case .variable(let name, let offset):
            guard let variable = scope.variables[name] else {
                throw ExpressionTypeError(
                    message: "undefined context variable '\(name)'"
                        + Suggestion.didYouMean(name, in: scope.variables.keys), offset: offset)
            }
            return (.variable(variable.slot), variable.type)
        case .inState(let name, let offset):
            guard let slot = scope.activitySlots[name] else {
                throw ExpressionTypeError(message: undefinedStateMessage(name, in: scope), offset: offset)
            }
            return (.variable(slot), .bool)
        case .argument(let offset):
            guard let type = scope.argumentType else {
                throw ExpressionTypeError(message: "'arg' is not available: \(scope.argumentUnavailable)", offset: offset)
            }
            return (.argument, ExpressionType(type))
        case .unary(let op, let operand, let offset):
            let (compiled, type) = try check(operand, in: scope)
            switch op {
            case .not:
                try require(type.base == .bool, "'!' needs a bool, found \(type)", offset)
                return (.not(compiled), .bool)
            case .negate:
                try require(type.base.isNumber, "'-' needs a number, found \(type)", offset)
                return (.negate(compiled), ExpressionType(type.base, nullable: type.isNullable))
            }
        case .call(let name, let arguments, let offset):
            return try checkCall(name, arguments, offset, in: scope)
        case .list(let items, let offset):
            return try checkList(items, offset, in: scope)
        case .index(let list, let index, let offset):
            let (compiledList, listType) = try check(list, in: scope)
            try require(listType.base == .list, "'[...]' takes an item of a list, but this is \(listType)", offset)
            let (compiledIndex, indexType) = try check(index, in: scope)
            try require(indexType.base == .int, "a list's index is an int, found \(indexType)", start(of: index))
            return (
                .index(compiledList, compiledIndex),
                ExpressionType(listType.element ?? .null, nullable: listType.isNullable || indexType.isNullable)
            )
        case .field(let record, let name, let offset):
            return try checkField(record, name, offset, in: scope)
        case .binary(let op, let lhs, let rhs, let offset):
            let comparing = op == .equal || op == .notEqual
            let left: CompiledExpression, leftType: ExpressionType
            do {
                (left, leftType) = try check(lhs, in: scope)
            } catch {
                guard comparing, let other = try? check(rhs, in: scope) else { throw error }
                throw unquotedText(lhs, comparedWith: other.1, error)
            }
            let right: CompiledExpression, rightType: ExpressionType
            do {
                (right, rightType) = try check(rhs, in: scope)
            } catch {
                throw comparing ? unquotedText(rhs, comparedWith: leftType, error) : error
            }
            let operands = "\(leftType) \(op.rawValue) \(rightType)"
            switch op {
            case .and, .or:
                try require(
                    leftType.base == .bool && rightType.base == .bool, "'\(op.rawValue)' needs bools, found \(operands)",
                    offset)
                return (op == .and ? .and(left, right) : .or(left, right), .bool)
            case .equal, .notEqual:
                let comparable =
                    (leftType.base == rightType.base && Self.itemsComparable(leftType, rightType))
                    || (leftType.base.isNumber && rightType.base.isNumber)
                    || (leftType.base == .null && rightType.isNullable) || (rightType.base == .null && leftType.isNullable)
                try require(comparable, "'\(op.rawValue)' needs operands of one type, found \(operands)", offset)
                return (.equal(left, right, negated: op == .notEqual), .bool)
            case .less, .lessOrEqual, .greater, .greaterOrEqual:
                let ordered =
                    (leftType.base.isNumber && rightType.base.isNumber)
                    || (leftType.base == .string && rightType.base == .string)
                try require(ordered, "'\(op.rawValue)' needs two numbers or two strings, found \(operands)", offset)
                return (.order(op, left, right), .bool)
            case .add where leftType.base == .string || rightType.base == .string:
                try require(
                    leftType.base == .string && rightType.base == .string,
                    "'+' joins two strings or adds two numbers, found \(operands)", offset)
                return (.concatenate(left, right), ExpressionType(.string, nullable: leftType.isNullable || rightType.isNullable))
            case .add, .subtract, .multiply, .divide:
                try require(
                    leftType.base.isNumber && rightType.base.isNumber,
                    "'\(op.rawValue)' needs two numbers, found \(operands)", offset)
                let base: ValueType = leftType.base == .int && rightType.base == .int ? .int : .double
                return (.arithmetic(op, left, right), ExpressionType(base, nullable: leftType.isNullable || rightType.isNullable))
            }
        }
    }

    /// "in() refers to undefined state", with a hint when the name is quoted (`in('ewRed')`):
    /// in() takes a state's name as written in `states`, without quotes.
    private static func undefinedStateMessage(_ name: String, in scope: ExpressionScope) -> String {
        let scalars = Array(name.unicodeScalars)
        if scalars.count >= 2, let first = scalars.first, first == "'" || first == "\"", scalars.last == first {
            let unquoted = String(String.UnicodeScalarView(scalars[1..<(scalars.count - 1)]))
            let known = scope.activitySlots[unquoted] != nil || scope.stateNames.contains(unquoted)
            return "in() refers to undefined state \(name)"
                + (known ? "" : Suggestion.didYouMean(unquoted, in: scope.stateNames))
                + "; in() takes a state's name without quotes: in(\(unquoted))"
        }
        return "in() refers to undefined state '\(name)'" + Suggestion.didYouMean(name, in: scope.stateNames)
    }

    /// `turn == ns`: a name that is no variable, compared with a string, is most likely text
    /// meant to be quoted. `error`, checking `operand`, with that hint when it applies.
    private static func unquotedText(_ operand: Expression, comparedWith other: ExpressionType, _ error: ExpressionTypeError)
        -> ExpressionTypeError
    {
        guard case .variable(let text, let offset) = operand, offset == error.offset, other.base == .string,
            error.message.hasPrefix("undefined context variable")
        else { return error }
        return ExpressionTypeError(message: error.message + "; to compare with the string, quote it: \"\(text)\"", offset: offset)
    }

    /// Checks an expression whose value is stored where `expected` is expected (an assignment or a sent argument).
    package static func check(_ expression: Expression, in scope: ExpressionScope, storedAs expected: ExpressionType)
        throws(ExpressionTypeError) -> CompiledExpression
    {
        let (compiled, type) = try check(expression, in: scope)
        try require(expected.accepts(type), "expected a value of type \(expected), found \(type)", expression.offset)
        return expected.base == .double && type.base == .int ? .toDouble(compiled) : compiled
    }

    /// A call: the function known, as many arguments as it takes, each of a type it accepts.
    private static func checkCall(_ name: String, _ arguments: [Expression], _ offset: Int, in scope: ExpressionScope)
        throws(ExpressionTypeError) -> (CompiledExpression, ExpressionType)
    {
        if name == Self.inputName && arguments.isEmpty, let slot = scope.inputNameSlot { return (.variable(slot), .string) }
        if name == Self.inputName && !arguments.isEmpty {
            throw ExpressionTypeError(message: "input() takes no argument: it is the name of the input being processed", offset: offset)
        }
        guard let function = BuiltinFunction(rawValue: name) else {
            throw ExpressionTypeError(
                message: "unknown function '\(name)'" + Suggestion.didYouMean(name, in: BuiltinFunction.names)
                    + "; the functions are \(BuiltinFunction.names.joined(separator: ", "))",
                offset: offset)
        }
        try require(
            arguments.count == function.arity,
            "\(name)() takes \(function.arity == 1 ? "one argument" : "\(function.arity) arguments"), found \(arguments.count); write \(function.signature)",
            offset)
        var compiled: [CompiledExpression] = []
        var types: [ExpressionType] = []
        for argument in arguments {
            let (expression, type) = try check(argument, in: scope)
            compiled.append(expression)
            types.append(type)
        }
        switch function.resultType(types) {
        case .success(let type): return (.call(function, compiled), type)
        case .failure(let problem): throw ExpressionTypeError(message: problem.message, offset: start(of: arguments[problem.index]))
        }
    }

    /// Whether two lists' items can be compared (one type, two numbers, or an empty list); true
    /// for any other two types.
    private static func itemsComparable(_ a: ExpressionType, _ b: ExpressionType) -> Bool {
        guard let x = a.element, let y = b.element else { return true }
        return x == y || x == .null || y == .null || (x.isNumber && y.isNumber)
    }

    /// `[a, b, c]`: items of one type (ints among doubles made doubles); a list of constants
    /// is a constant.
    private static func checkList(_ items: [Expression], _ offset: Int, in scope: ExpressionScope)
        throws(ExpressionTypeError) -> (CompiledExpression, ExpressionType)
    {
        var compiled: [CompiledExpression] = []
        var types: [ExpressionType] = []
        for item in items {
            let (expression, type) = try check(item, in: scope)
            try require(
                type.base != .list && type.base != .record && type.base != .null,
                "a list holds ints, doubles, bools or strings, found \(type)", start(of: item))
            if let first = types.first {
                try require(
                    first.base == type.base || (first.base.isNumber && type.base.isNumber),
                    "a list's items are of one type: the first is \(first.base), this one \(type.base)", start(of: item))
            }
            compiled.append(expression)
            types.append(type)
        }
        let element: ValueType = types.contains { $0.base == .double } ? .double : types.first?.base ?? .null
        if element == .double {
            for index in compiled.indices where types[index].base == .int { compiled[index] = .toDouble(compiled[index]) }
        }
        var constants: [Value] = []
        for item in compiled {
            switch item {
            case .constant(let value): constants.append(value)
            case .toDouble(.constant(.int(let i))): constants.append(.double(Double(i)))
            default: return (.list(compiled), .list(of: element))
            }
        }
        return (.constant(.list(constants)), .list(of: element))
    }

    /// `arg.NAME`: a field of the input's data, of the type the machine's sends give it.
    private static func checkField(_ record: Expression, _ name: String, _ offset: Int, in scope: ExpressionScope)
        throws(ExpressionTypeError) -> (CompiledExpression, ExpressionType)
    {
        guard case .argument = record else {
            let (_, type) = try check(record, in: scope)
            throw ExpressionTypeError(
                message: "'.\(name)' reads a field of the input's data, written arg.\(name); this is \(type), which has no fields",
                offset: offset)
        }
        if let type = scope.argumentType {
            throw ExpressionTypeError(message: "'arg.\(name)': arg is \(type), not data with fields", offset: offset)
        }
        guard let type = scope.dataFields[name] else {
            let known = scope.dataFields.keys.sorted()
            throw ExpressionTypeError(
                message: "no send gives an input's data the field '\(name)'" + Suggestion.didYouMean(name, in: known)
                    + (known.isEmpty ? "; fields are given by a send's 'data'" : "; the fields are \(known.joined(separator: ", "))"),
                offset: offset)
        }
        return (.field(.argument, name), ExpressionType(type))
    }

    /// Where the text of `expression` starts (its ``Expression/offset`` is an operator's, for a binary one).
    private static func start(of expression: Expression) -> Int {
        switch expression {
        case .binary(_, let lhs, _, _), .index(let lhs, _, _), .field(let lhs, _, _): return start(of: lhs)
        default: return expression.offset
        }
    }

    private static func require(_ condition: Bool, _ message: @autoclosure () -> String, _ offset: Int)
        throws(ExpressionTypeError)
    {
        if !condition { throw ExpressionTypeError(message: message(), offset: offset) }
    }
}
