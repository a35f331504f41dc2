import Statecraft

extension ScriptLineParser {
    /// Parses the input of a JSON Lines line (``JSONInputLine``) as ``parse(name:argument:)``
    /// does a script line's, except that the argument is JSON: an input that takes a string
    /// takes only a JSON string (`"5"`, not `5`), and a message shows the argument as the line
    /// writes it (`got "4"`, not `got "\"4\""`).
    package mutating func parse(name: UnsafeRawBufferPointer, jsonArgument argument: UnsafeRawBufferPointer?) -> Parsed {
        let parsed = parse(name: name, argument: argument)
        guard let argument else { return parsed }
        switch parsed {
        case .input(let input, _) where argumentTypes[input] == .string && argument.first != UInt8(ascii: "\""):
            return .badArgument(input: input, problem: "got \(Self.showJSON(argument)), not a JSON string")
        case .badArgument(let input, _):
            return .badArgument(input: input, problem: "got \(Self.showJSON(argument))")
        default:
            return parsed
        }
    }

    /// A JSON value as the line writes it, for a message (its first 60 bytes).
    private static func showJSON(_ bytes: UnsafeRawBufferPointer) -> String {
        let shown = bytes.count > 60 ? UnsafeRawBufferPointer(rebasing: bytes[..<60]) : bytes
        return JSONText.escapingControls(String(decoding: shown, as: UTF8.self)) + (bytes.count > 60 ? "..." : "")
    }
}
