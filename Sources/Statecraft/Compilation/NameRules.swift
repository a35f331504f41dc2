/// What a name of a state, input, effect or variable may look like.
///
/// Names are written bare in transition rows (`input | a, b => c | e`) and input scripts
/// (`input ARG`), so they cannot hold the characters those forms split on.
package enum NameRules {
    /// Characters a state, input or effect name cannot contain.
    package static let reservedCharacters: Set<Unicode.Scalar> = ["|", ",", "=", "*", "#", "\"", "[", "]", "{", "}"]

    /// Why `name` is not a valid state, input or effect name, or `nil` when it is.
    package static func problem(withName name: String) -> String? {
        if isPlainASCII(name) { return nil }
        if name.isEmpty { return "a name cannot be empty" }
        for scalar in name.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
                return "name '\(JSONText.escapingControls(name))' contains a space or control character"
            }
            if reservedCharacters.contains(scalar) {
                return "name '\(name)' contains '\(scalar)', which separates names in rows and scripts"
            }
        }
        return nil
    }

    /// Why `name` is not a valid input name, or `nil` when it is: a state's rules, and no `@`
    /// first, which marks script lines that are no input (`@wait 30s`).
    package static func problem(withInputName name: String) -> String? {
        if name.hasPrefix("@") {
            return "input name '\(name)' cannot start with '@', which marks script directives such as '@wait'"
        }
        return problem(withName: name)
    }

    /// Whether `name` is non-empty printable ASCII without a space or a reserved character: a
    /// valid name, known without looking up Unicode properties (most names are such).
    private static func isPlainASCII(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            // The table read once, not per byte (each read of a static checks its initialisation).
            let plainASCII = plainASCII
            return !bytes.isEmpty && bytes.allSatisfy { $0 < 0x80 && plainASCII[Int($0)] }
        }
    }

    /// Per ASCII byte, whether it is printable and not reserved.
    private static let plainASCII: [Bool] = (0..<0x80).map { byte in
        byte > 0x20 && byte < 0x7F && !reservedCharacters.contains(Unicode.Scalar(UInt8(byte)))
    }

    /// Words of the expression language that cannot name a context variable.
    package static let keywords: Set<String> = ["true", "false", "null", "arg"]

    /// Why `name` is not a valid context variable name, or `nil` when it is.
    package static func problem(withVariableName name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "a variable name cannot be empty" }
        let isIdentifier =
            (first == "_" || first.properties.isAlphabetic)
            && name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        if !isIdentifier {
            return "variable name '\(name)' must be letters, digits and '_', not starting with a digit"
        }
        if keywords.contains(name) { return "'\(name)' is a word of the expression language, not a variable name" }
        return nil
    }
}
