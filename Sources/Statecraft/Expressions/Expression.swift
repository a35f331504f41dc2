/// A parsed guard or assignment expression (docs/machine-files.md): a syntax tree over names, not yet
/// type-checked. Offsets count Unicode scalars from the start of the expression text.
package indirect enum Expression: Hashable, Sendable {
    package enum UnaryOperator: String, Hashable, Sendable {
        case not = "!", negate = "-"
    }

    package enum BinaryOperator: String, Hashable, Sendable {
        case or = "||", and = "&&"
        case equal = "==", notEqual = "!="
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case add = "+", subtract = "-", multiply = "*", divide = "/"

        var precedence: Int {
            switch self {
            case .or: 1
            case .and: 2
            case .equal, .notEqual: 3
            case .less, .lessOrEqual, .greater, .greaterOrEqual: 4
            case .add, .subtract: 5
            case .multiply, .divide: 6
            }
        }
    }

    case literal(Value, offset: Int)
    case variable(String, offset: Int)
    /// `arg`, the input's argument.
    case argument(offset: Int)
    case unary(UnaryOperator, Expression, offset: Int)
    case binary(BinaryOperator, Expression, Expression, offset: Int)
    /// `in(STATE)`: whether the state is active (a statechart's configuration holds it).
    case inState(String, offset: Int)
    /// `name(arguments)`: a call of a function, by name, not yet resolved (``BuiltinFunction``).
    case call(String, [Expression], offset: Int)
    /// `[a, b, c]`: a list of the items' values.
    case list([Expression], offset: Int)
    /// `list[index]`: a list's item; `offset` is the `[`'s.
    case index(Expression, Expression, offset: Int)
    /// `arg.NAME`: a field of the input's data; `offset` is the `.`'s.
    case field(Expression, String, offset: Int)

    /// Where this expression starts in the text.
    package var offset: Int {
        switch self {
        case .literal(_, let offset), .variable(_, let offset), .argument(let offset),
            .unary(_, _, let offset), .binary(_, _, _, let offset), .inState(_, let offset), .call(_, _, let offset),
            .list(_, let offset), .index(_, _, let offset), .field(_, _, let offset):
            offset
        }
    }

    /// The states that `in()` tests anywhere in the expression, in order.
    package var testedStates: [String] {
        switch self {
        case .inState(let name, _): [name]
        case .literal, .variable, .argument: []
        case .unary(_, let operand, _): operand.testedStates
        case .binary(_, let lhs, let rhs, _): lhs.testedStates + rhs.testedStates
        case .call(_, let arguments, _), .list(let arguments, _): arguments.flatMap(\.testedStates)
        case .index(let list, let index, _): list.testedStates + index.testedStates
        case .field(let record, _, _): record.testedStates
        }
    }

    /// Whether the expression calls `input()` anywhere (the name of the input being processed).
    package var readsInputName: Bool {
        switch self {
        case .call(let name, let arguments, _):
            (name == ExpressionChecker.inputName && arguments.isEmpty) || arguments.contains { $0.readsInputName }
        case .literal, .variable, .inState, .argument: false
        case .unary(_, let operand, _): operand.readsInputName
        case .binary(_, let lhs, let rhs, _), .index(let lhs, let rhs, _): lhs.readsInputName || rhs.readsInputName
        case .list(let items, _): items.contains { $0.readsInputName }
        case .field(let record, _, _): record.readsInputName
        }
    }

    /// Whether the expression reads `arg` anywhere.
    package var readsArgument: Bool {
        switch self {
        case .argument: true
        case .literal, .variable, .inState: false
        case .unary(_, let operand, _): operand.readsArgument
        case .binary(_, let lhs, let rhs, _), .index(let lhs, let rhs, _): lhs.readsArgument || rhs.readsArgument
        case .call(_, let arguments, _), .list(let arguments, _): arguments.contains { $0.readsArgument }
        case .field(let record, _, _): record.readsArgument
        }
    }
}

/// A syntax error in an expression, at an offset into its text.
package struct ExpressionSyntaxError: Error, Hashable, Sendable {
    @usableFromInline package var message: String
    package var offset: Int
}
