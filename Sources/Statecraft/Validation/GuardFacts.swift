/// What guards say about single variables, for telling that two cannot hold at once
/// (``MachineLinter/eventlessLoops(_:_:_:)``): a guard's conjuncts (`&&` split) of the forms
/// `x`, `!x`, `x == a`, `x < a` and `x > a` (a literal on either side); any other says nothing.
enum GuardFacts {
    enum Fact: Equatable {
        case truth(String, Bool)
        case equal(String, Value)
        case less(String, Value)
        case greater(String, Value)
    }

    /// Whether two of `guards` contradict: `x` and `!x`; `x == a` and `x == b` with a ≠ b;
    /// `x < a` and `x > b` with a ≤ b.
    static func contradict(_ guards: [Expression]) -> Bool {
        let facts = guards.map(facts(of:))
        for (i, first) in facts.enumerated() {
            for second in facts[(i + 1)...] {
                for a in first {
                    for b in second where contradict(a, b) { return true }
                }
            }
        }
        return false
    }

    static func facts(of expression: Expression) -> [Fact] {
        switch expression {
        case .binary(.and, let lhs, let rhs, _):
            return facts(of: lhs) + facts(of: rhs)
        case .variable(let name, _):
            return [.truth(name, true)]
        case .unary(.not, .variable(let name, _), _):
            return [.truth(name, false)]
        case .binary(let op, .variable(let name, _), let other, _):
            guard let value = literal(other) else { return [] }
            return fact(op, name, value)
        case .binary(let op, let other, .variable(let name, _), _):
            guard let value = literal(other) else { return [] }
            // `a < x` says `x > a`.
            switch op {
            case .less: return fact(.greater, name, value)
            case .greater: return fact(.less, name, value)
            default: return fact(op, name, value)
            }
        default:
            return []
        }
    }

    private static func fact(_ op: Expression.BinaryOperator, _ name: String, _ value: Value) -> [Fact] {
        switch op {
        case .equal: [.equal(name, value)]
        case .less: [.less(name, value)]
        case .greater: [.greater(name, value)]
        default: []
        }
    }

    /// A literal, or a negated number literal (`-1` parses as a negation).
    private static func literal(_ expression: Expression) -> Value? {
        switch expression {
        case .literal(let value, _): value
        case .unary(.negate, .literal(.int(let value), _), _): .int(-value)
        case .unary(.negate, .literal(.double(let value), _), _): .double(-value)
        default: nil
        }
    }

    private static func contradict(_ a: Fact, _ b: Fact) -> Bool {
        switch (a, b) {
        case (.truth(let x, let p), .truth(let y, let q)): x == y && p != q
        case (.equal(let x, let u), .equal(let y, let v)): x == y && !same(u, v)
        case (.less(let x, let u), .greater(let y, let v)), (.greater(let y, let v), .less(let x, let u)):
            x == y && atMost(u, v)
        default: false
        }
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    private static func same(_ a: Value, _ b: Value) -> Bool {
        if let x = number(a), let y = number(b) { return x == y }
        return a == b
    }

    /// `a <= b`, for numbers (and strings, which guards compare by their order).
    private static func atMost(_ a: Value, _ b: Value) -> Bool {
        if let x = number(a), let y = number(b) { return x <= y }
        if case .string(let x) = a, case .string(let y) = b { return x <= y }
        return false
    }
}
