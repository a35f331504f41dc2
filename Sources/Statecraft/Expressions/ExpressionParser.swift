/// Parses the expression language (docs/machine-files.md) by precedence climbing. Never evaluates code.
package struct ExpressionParser {
    private enum Token: Hashable {
        case int(Int), double(Double), string(String), identifier(String)
        /// `in(NAME)`, read whole: a state's name may hold characters an identifier may not.
        case stateTest(String)
        case symbol(String)
        case end
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var token: Token = .end
    /// The token before ``token``: `not y` is reported at `y`, with a hint about `not`.
    private var previousToken: Token = .end
    private var tokenOffset = 0
    /// Parentheses and unary operators nest; past this depth an expression is refused.
    private static let maximumDepth = 64
    private var depth = 0
    /// Operators make the tree as deep as a chain of them (`n + 1 + 1 + ...`), and checking,
    /// evaluating and freeing it recurse; past this many an expression is refused.
    private static let maximumOperators = 256
    private var operators = 0

    private init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Parses `text` as one complete expression.
    package static func parse(_ text: String) throws(ExpressionSyntaxError) -> Expression {
        var parser = ExpressionParser(text)
        try parser.advance()
        if parser.token == .end {
            throw ExpressionSyntaxError(message: "expected an expression, found nothing", offset: 0)
        }
        let expression = try parser.parseBinary(minimumPrecedence: 1)
        if parser.token != .end {
            throw parser.unexpected("an operator or the end of the expression")
        }
        return expression
    }

    private mutating func parseBinary(minimumPrecedence: Int) throws(ExpressionSyntaxError) -> Expression {
        var lhs = try parseUnary()
        while case .symbol(let symbol) = token, let op = Expression.BinaryOperator(rawValue: symbol),
            op.precedence >= minimumPrecedence
        {
            let offset = tokenOffset
            try countOperator()
            try advance()
            let rhs = try parseBinary(minimumPrecedence: op.precedence + 1)
            lhs = .binary(op, lhs, rhs, offset: offset)
        }
        return lhs
    }

    private mutating func parseUnary() throws(ExpressionSyntaxError) -> Expression {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maximumDepth {
            throw ExpressionSyntaxError(
                message: "expression nests deeper than \(Self.maximumDepth) levels", offset: tokenOffset)
        }
        let offset = tokenOffset
        switch token {
        case .symbol("!"):
            try countOperator()
            try advance()
            return .unary(.not, try parseUnary(), offset: offset)
        case .symbol("-"):
            try countOperator()
            try advance()
            return .unary(.negate, try parseUnary(), offset: offset)
        default:
            return try parsePostfix(try parsePrimary())
        }
    }

    /// A value, a name, a call, a list or a parenthesised expression.
    private mutating func parsePrimary() throws(ExpressionSyntaxError) -> Expression {
        let offset = tokenOffset
        switch token {
        case .symbol("("):
            try advance()
            let inner = try parseBinary(minimumPrecedence: 1)
            guard token == .symbol(")") else { throw unexpected("')' to close the '(' at column \(offset + 1)") }
            try advance()
            return inner
        case .symbol("["):
            try advance()
            let items = try parseItems(closedBy: "]", what: "the list's '[' at column \(offset + 1)")
            return .list(items, offset: offset)
        case .int(let value):
            try advance()
            return .literal(.int(value), offset: offset)
        case .double(let value):
            try advance()
            return .literal(.double(value), offset: offset)
        case .string(let value):
            try advance()
            return .literal(.string(value), offset: offset)
        case .stateTest(let name):
            try advance()
            return .inState(name, offset: offset)
        case .identifier(let name):
            try advance()
            // A name followed by '(' is a call, whatever else the name means (a variable `len`
            // stays readable as `len`).
            if token == .symbol("(") { return try parseCall(name, offset: offset) }
            switch name {
            case "true": return .literal(.bool(true), offset: offset)
            case "false": return .literal(.bool(false), offset: offset)
            case "null": return .literal(.null, offset: offset)
            case "arg": return .argument(offset: offset)
            default: return .variable(name, offset: offset)
            }
        default:
            throw unexpected("a value, a name, '(', '[', '!' or '-'")
        }
    }

    /// What follows a primary: `[index]` (a list's item) and `.NAME` (a field of the input's
    /// data), any number of times. Each counts as an operator.
    private mutating func parsePostfix(_ primary: Expression) throws(ExpressionSyntaxError) -> Expression {
        var expression = primary
        while true {
            let offset = tokenOffset
            if token == .symbol("[") {
                try countOperator()
                try advance()
                let index = try parseBinary(minimumPrecedence: 1)
                guard token == .symbol("]") else { throw unexpected("']' to close the '[' at column \(offset + 1)") }
                try advance()
                expression = .index(expression, index, offset: offset)
            } else if token == .symbol(".") {
                try countOperator()
                try advance()
                guard case .identifier(let name) = token else { throw unexpected("a field's name after '.'") }
                try advance()
                expression = .field(expression, name, offset: offset)
            } else {
                return expression
            }
        }
    }

    /// Expressions separated by ',' up to `close` (the current token is the first item or
    /// `close`). Each ',' counts as an operator, so a call or list cannot hold more items than
    /// an expression may have operators.
    private mutating func parseItems(closedBy close: String, what: String) throws(ExpressionSyntaxError) -> [Expression] {
        var items: [Expression] = []
        if token != .symbol(close) {
            while true {
                items.append(try parseBinary(minimumPrecedence: 1))
                guard token == .symbol(",") else { break }
                try countOperator()
                try advance()
            }
        }
        guard token == .symbol(close) else { throw unexpected("',' or '\(close)' to close \(what)") }
        try advance()
        return items
    }

    /// The arguments of a call, from its '(' to its ')'.
    private mutating func parseCall(_ name: String, offset: Int) throws(ExpressionSyntaxError) -> Expression {
        let open = tokenOffset
        try advance()
        let arguments = try parseItems(closedBy: ")", what: "the '(' of \(name) at column \(open + 1)")
        return .call(name, arguments, offset: offset)
    }

    private mutating func countOperator() throws(ExpressionSyntaxError) {
        operators += 1
        if operators > Self.maximumOperators {
            throw ExpressionSyntaxError(
                message: "expression has more than \(Self.maximumOperators) operators; split it over several effects or variables",
                offset: tokenOffset)
        }
    }

    private func unexpected(_ expected: String) -> ExpressionSyntaxError {
        let found: String
        switch token {
        case .end: found = "the end of the expression"
        case .symbol(let s): found = "'\(s)'"
        case .identifier(let s): found = "'\(s)'"
        case .stateTest(let s): found = "'in(\(s))'"
        case .int(let i): found = "'\(i)'"
        case .double(let d): found = "'\(d)'"
        case .string(let s): found = JSONText.quoted(s)
        }
        return ExpressionSyntaxError(message: "expected \(expected), found \(found)" + wordOperatorHint, offset: tokenOffset)
    }

    /// Other languages' `and`, `or` and `not` are `&&`, `||` and `!` here: a hint for the
    /// error they cause (`x > 0 and y` finds `and` where an operator belongs; `not y` finds `y`
    /// after a name), or "".
    private var wordOperatorHint: String {
        let operators = ["and": "&&", "or": "||", "not": "!"]
        if case .identifier(let word) = token, let op = operators[word.lowercased()], word.lowercased() != "not" {
            return "; write '\(op)' for '\(word)'"
        }
        if case .identifier(let word) = previousToken, word.lowercased() == "not", token != .end {
            return "; write '!' for '\(word)'"
        }
        return ""
    }

    // MARK: - Lexer

    private mutating func advance() throws(ExpressionSyntaxError) {
        previousToken = token
        while position < scalars.count, scalars[position].properties.isWhitespace { position += 1 }
        tokenOffset = position
        guard position < scalars.count else {
            token = .end
            return
        }
        let c = scalars[position]
        if c.isASCIIDigit {
            token = try lexNumber()
        } else if c == "\"" || c == "'" {
            token = .string(try lexString(quote: c))
        } else if c == "_" || c.properties.isAlphabetic {
            let start = position
            while position < scalars.count,
                scalars[position] == "_" || scalars[position].properties.isAlphabetic || scalars[position].isASCIIDigit
            {
                position += 1
            }
            token = .identifier(String(String.UnicodeScalarView(scalars[start..<position])))
            if token == .identifier("in") { try lexStateTest() }
        } else {
            let two = position + 1 < scalars.count ? String(String.UnicodeScalarView([c, scalars[position + 1]])) : ""
            if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
                position += 2
                token = .symbol(two)
            } else if "!<>+-*/(),[].".unicodeScalars.contains(c) {
                position += 1
                token = .symbol(String(c))
            } else if c == "=" {
                throw ExpressionSyntaxError(message: "'=' is not an operator; compare with '=='", offset: position)
            } else if c == "&" || c == "|" {
                throw ExpressionSyntaxError(message: "'\(c)' is not an operator; use '\(c)\(c)'", offset: position)
            } else {
                throw ExpressionSyntaxError(
                    message: "unexpected character '\(JSONText.escapingControls(String(c)))'", offset: position)
            }
        }
    }

    /// After `in`: when a `(` follows, the state test `in(NAME)` up to its `)`.
    private mutating func lexStateTest() throws(ExpressionSyntaxError) {
        var next = position
        while next < scalars.count, scalars[next].properties.isWhitespace { next += 1 }
        guard next < scalars.count, scalars[next] == "(" else { return }
        let open = next
        next += 1
        var name = String.UnicodeScalarView()
        while next < scalars.count, scalars[next] != ")" {
            if !scalars[next].properties.isWhitespace { name.append(scalars[next]) }
            next += 1
        }
        guard next < scalars.count else {
            throw ExpressionSyntaxError(message: "'in(' is not closed by ')'", offset: open)
        }
        guard !name.isEmpty else {
            throw ExpressionSyntaxError(message: "'in()' needs a state's name: in(STATE)", offset: open)
        }
        position = next + 1
        token = .stateTest(String(name))
    }

    private mutating func lexNumber() throws(ExpressionSyntaxError) -> Token {
        let start = position
        while position < scalars.count, scalars[position].isASCIIDigit { position += 1 }
        var isDouble = false
        if position + 1 < scalars.count, scalars[position] == ".", scalars[position + 1].isASCIIDigit {
            isDouble = true
            position += 1
            while position < scalars.count, scalars[position].isASCIIDigit { position += 1 }
        }
        if position < scalars.count, scalars[position] == "e" || scalars[position] == "E" {
            var next = position + 1
            if next < scalars.count, scalars[next] == "+" || scalars[next] == "-" { next += 1 }
            if next < scalars.count, scalars[next].isASCIIDigit {
                isDouble = true
                position = next
                while position < scalars.count, scalars[position].isASCIIDigit { position += 1 }
            }
        }
        if position < scalars.count, scalars[position] == "_" || scalars[position].properties.isAlphabetic {
            throw ExpressionSyntaxError(message: "a name cannot start with a digit", offset: start)
        }
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        if isDouble, let value = Double(text), value.isFinite { return .double(value) }
        if !isDouble, let value = Int(text) { return .int(value) }
        throw ExpressionSyntaxError(message: "number '\(text)' is out of range", offset: start)
    }

    private mutating func lexString(quote: Unicode.Scalar) throws(ExpressionSyntaxError) -> String {
        let start = position
        position += 1
        var value = String.UnicodeScalarView()
        while position < scalars.count {
            let c = scalars[position]
            position += 1
            if c == quote { return String(value) }
            if c == "\\" {
                guard position < scalars.count else { break }
                let escaped = scalars[position]
                position += 1
                switch escaped {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                case "\\", "\"", "'", "/": value.append(escaped)
                default:
                    throw ExpressionSyntaxError(
                        message: "unknown escape '\\\(JSONText.escapingControls(String(escaped)))' in a string", offset: position - 2)
                }
            } else {
                value.append(c)
            }
        }
        throw ExpressionSyntaxError(message: "string is not closed by \(quote)", offset: start)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
