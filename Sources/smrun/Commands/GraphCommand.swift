import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftYAML

/// `smrun graph MACHINE.yaml`: prints the machine as a Graphviz DOT or Mermaid state diagram.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        _superCommandName: Smrun.name,
        abstract: "Print a machine as a state diagram: Graphviz DOT or Mermaid.",
        discussion: """
            Draw the DOT output with Graphviz, e.g. `smrun graph m.yaml | dot -Tsvg > m.svg`; paste the \
            Mermaid output into a ```mermaid block of a Markdown file. Entry and exit effects are \
            written under their state's name; staying transitions (no `to`) are dashed in DOT and \
            marked (stays) in Mermaid. Exit status: 0, or 2 for an invalid machine, an unreadable \
            --state file, or a usage or I/O error.
            """
    )

    /// The `--direction` values.
    enum Direction: String, ExpressibleByArgument, CaseIterable {
        /// Left to right.
        case LR
        /// Top to bottom.
        case TB

        var diagramDirection: Diagram.Direction {
            switch self {
            case .LR: .leftToRight
            case .TB: .topToBottom
            }
        }
    }

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

    @Argument(help: "The machine file (YAML, or SCXML for a .scxml file).", completion: .file(extensions: ["yaml", "yml", "scxml"]))
    var machine: String

    @Option(help: "Diagram format: dot (Graphviz) or mermaid (stateDiagram-v2).")
    var format: Format = .dot

    @Option(help: "Which way the diagram flows: LR (left to right) or TB (top to bottom). Default: LR in DOT, Mermaid's own in Mermaid.")
    var direction: Direction?

    @Option(
        name: .customLong("state"),
        help: ArgumentHelp("Highlight the state saved in this state file (smrun --state FILE); the file is only read.", valueName: "file"))
    var stateFile: String?

    @OptionGroup var limits: MachineOptions

    func run() throws {
        let loaded = limits.load(machine)
        DiagnosticPrinter.printToStandardError(loaded.diagnostics, file: machine)
        guard let compiled = loaded.machine else { throw ExitCode(Smrun.Status.invalid) }
        var options = Diagram.Options(direction: direction?.diagramDirection)
        if let stateFile { options.highlightedStates = try savedStates(stateFile, of: compiled) }
        var output = OutputBuffer(fd: 1)
        output.append(Diagram.render(compiled, definition: loaded.definition, format: format.diagramFormat, options: options))
        output.flush()
    }

    /// The states saved in `path` (a state, or a statechart's active atomic states), found by
    /// name. A snapshot of another definition of the machine still shows its states, with a
    /// warning; a state the machine does not have is an error.
    private func savedStates(_ path: String, of machine: CompiledMachine) throws -> Set<Int> {
        let saved = try StateFile.readDocument(path).saved
        let codec = SnapshotCodec(machine)
        do throws(SnapshotError) {
            let snapshot = try codec.check(saved)
            return Set(snapshot.configuration.isEmpty ? [snapshot.state] : snapshot.configuration)
        } catch {
            var states = Set<Int>()
            for name in saved.stateNames {
                guard let state = machine.stateNames.firstIndex(of: name) else {
                    FileHandleOutput.standardError(
                        "smrun: state file \(path): state \(JSONText.quoted(name)) is not a state of machine '\(machine.name)'"
                            + Suggestion.didYouMean(name, in: machine.stateNames) + "\n")
                    throw ExitCode(Smrun.Status.invalid)
                }
                states.insert(state)
            }
            let which = saved.stateNames.count == 1 ? "state" : "states"
            FileHandleOutput.standardError(
                "smrun: state file \(path): warning: \(error.message); highlighting \(which) '\(saved.stateText)' by name\n")
            return states
        }
    }
}
