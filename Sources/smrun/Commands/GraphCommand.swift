import ArgumentParser
import Statecraft
import StatecraftYAML

/// `smrun graph MACHINE.yaml`: prints the machine as a Graphviz DOT or Mermaid state diagram.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print a machine as a state diagram: Graphviz DOT or Mermaid.",
        discussion: """
            Draw the DOT output with Graphviz, e.g. `smrun graph m.yaml | dot -Tsvg > m.svg`; paste the \
            Mermaid output into a ```mermaid block of a Markdown file. Exit status: 0, or 2 for an \
            invalid machine or a usage or I/O error.
            """
    )

    /// The `--format` values, one per ``Diagram/Format``.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// Graphviz DOT.
        case dot
        /// Mermaid `stateDiagram-v2`.
        case mermaid

        var diagramFormat: Diagram.Format {
            switch self {
            case .dot: .dot
            case .mermaid: .mermaid
            }
        }
    }

    @Argument(help: "The machine file (YAML).", completion: .file(extensions: ["yaml", "yml"]))
    var machine: String

    @Option(help: "Diagram format: dot (Graphviz) or mermaid (stateDiagram-v2).")
    var format: Format = .dot

    @OptionGroup var limits: LimitOptions

    func run() throws {
        let loaded = MachineFile.load(path: machine, limits: limits.limits)
        DiagnosticPrinter.printToStandardError(loaded.diagnostics, file: machine)
        guard let compiled = loaded.machine else { throw ExitCode(Smrun.Status.invalid) }
        var output = OutputBuffer(fd: 1)
        output.append(Diagram.render(compiled, definition: loaded.definition, format: format.diagramFormat))
        output.flush()
    }
}
