/// A type error in an expression, at an offset into its text.
package struct ExpressionTypeError: Error, Hashable, Sendable {
    package var message: String
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

    package init(variables: [String: (slot: Int, type: ExpressionType)], argumentType: ValueType?, argumentUnavailable: String) {
        self.variables = variables
        self.argumentType = argumentType
        self.argumentUnavailable = argumentUnavailable
    }
}

/// Type-checks expressions (docs/machine-files.md) and resolves their names.
package enum ExpressionChecker {
    /// Checks `expression` in `scope`, returning its compiled form and its type.
    package static func check(_ expression: Expression, in scope: ExpressionScope) throws(ExpressionTypeError)
        -> (CompiledExpression, ExpressionType)
    {
        switch expression {
        case .literal(let value, _):
            return (.constant(value), ExpressionType(value.type))
        case .variable(let name, let offset):
            guard let variable = scope.variables[name] else {
                throw ExpressionTypeError(
                    message: "undefined context variable '\(name)'"
                        + Suggestion.didYouMean(name, in: scope.variables.keys), offset: offset)
            }
            return (.variable(variable.slot), variable.type)
        case .inState(let name, let offset):
            guard let slot = scope.activitySlots[name] else {
                throw ExpressionTypeError(
                    message: "in() refers to undefined state '\(name)'" + Suggestion.didYouMean(name, in: scope.stateNames), offset: offset)
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
        case .binary(let op, let lhs, let rhs, let offset):
            let (left, leftType) = try check(lhs, in: scope)
            let (right, rightType) = try check(rhs, in: scope)
            let operands = "\(leftType) \(op.rawValue) \(rightType)"
            switch op {
            case .and, .or:
                try require(
                    leftType.base == .bool && rightType.base == .bool, "'\(op.rawValue)' needs bools, found \(operands)",
                    offset)
                return (op == .and ? .and(left, right) : .or(left, right), .bool)
            case .equal, .notEqual:
                let comparable =
                    leftType.base == rightType.base || (leftType.base.isNumber && rightType.base.isNumber)
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

    /// Checks an expression whose value is stored where `expected` is expected (an assignment or a sent argument).
    package static func check(_ expression: Expression, in scope: ExpressionScope, storedAs expected: ExpressionType)
        throws(ExpressionTypeError) -> CompiledExpression
    {
        let (compiled, type) = try check(expression, in: scope)
        try require(expected.accepts(type), "expected a value of type \(expected), found \(type)", expression.offset)
        return expected.base == .double && type.base == .int ? .toDouble(compiled) : compiled
    }

    private static func require(_ condition: Bool, _ message: @autoclosure () -> String, _ offset: Int)
        throws(ExpressionTypeError)
    {
        if !condition { throw ExpressionTypeError(message: message(), offset: offset) }
    }
}
