import ArgumentParser

/// The value of `smrun run --input-format`: the input lines' format (`script`, the default, or
/// `jsonl`) or, as the option meant before `--machine-format`, the machine file's (`yaml`,
/// `scxml`), still taken as an alias of `--machine-format`.
enum InputFormatOption: String, CaseIterable, ExpressibleByArgument {
    case script
    case jsonl
    case yaml
    case scxml

    /// The values that help and completions offer: the old ones are taken, not advertised.
    static var allValueStrings: [String] { [script.rawValue, jsonl.rawValue] }

    var lineFormat: InputLineFormat? {
        switch self {
        case .script: .script
        case .jsonl: .jsonl
        case .yaml, .scxml: nil
        }
    }

    /// The machine format the old spelling names.
    var machineFormat: MachineFormat? {
        switch self {
        case .yaml: .yaml
        case .scxml: .scxml
        case .script, .jsonl: nil
        }
    }
}
