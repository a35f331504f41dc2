import Statecraft

/// A scalar: its text exactly as libyaml read it (by length, so an escaped NUL survives), its
/// style, and its explicit tag if any.
package struct YAMLScalar: Sendable, Hashable {
    package enum Style: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    package var value: String
    package var style: Style
    /// An explicit tag such as `!!str`, or `nil`.
    package var tag: String?
    package var position: SourcePosition

    package init(_ value: String, style: Style = .plain, tag: String? = nil, position: SourcePosition) {
        self.value = value
        self.style = style
        self.tag = tag
        self.position = position
    }

    /// A plain `null`, `~` or empty scalar, as YAML 1.2's core schema reads it.
    package var isNull: Bool {
        style == .plain && tag == nil && ["", "~", "null", "Null", "NULL"].contains(value)
    }

    /// Columns between the scalar's position and its first character (the opening quote).
    package var contentOffset: Int {
        style == .singleQuoted || style == .doubleQuoted ? 1 : 0
    }

    /// The scalar as a typed value under YAML 1.2's core schema: `true`/`false`, null,
    /// integers, floats; everything else (and anything quoted) is a string.
    package var coreSchemaValue: Value {
        guard style == .plain else { return .string(value) }
        if let tag, tag != "tag:yaml.org,2002:str" { return Self.resolve(value) ?? .string(value) }
        if tag != nil { return .string(value) }
        return Self.resolve(value) ?? .string(value)
    }

    /// Whether the scalar is written as an integer (plain, untagged or tagged int: decimal, `0x`
    /// or `0o`) that does not fit in 64 bits, which ``coreSchemaValue`` could only read as a string.
    package var isOutOfRangeInteger: Bool {
        guard style == .plain, tag == nil || tag == "tag:yaml.org,2002:int" else { return false }
        var digits = Substring(value)
        if let sign = digits.first, sign == "-" || sign == "+" { digits = digits.dropFirst() }
        for (prefix, radix) in [("0x", 16), ("0o", 8)] where digits.hasPrefix(prefix) {
            let rest = digits.dropFirst(2)
            return !rest.isEmpty && rest.allSatisfy { $0.isHexDigit && Int(String($0), radix: radix) != nil } && Int(rest, radix: radix) == nil
        }
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber } && Int(value) == nil
    }

    private static func resolve(_ text: String) -> Value? {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return Int(text).map(Value.int)
        }
        if digits.hasPrefix("0x"), let i = Int(digits.dropFirst(2), radix: 16) { return .int(negative ? -i : i) }
        if digits.hasPrefix("0o"), let i = Int(digits.dropFirst(2), radix: 8) { return .int(negative ? -i : i) }
        let isFloat = text.wholeMatch(of: /[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?/) != nil
        if isFloat, let d = Double(text) { return .double(d) }
        return nil
    }
}
