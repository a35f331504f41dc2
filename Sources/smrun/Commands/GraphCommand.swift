import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftYAML

/// `smrun graph MACHINE.yaml`: prints the machine as a Graphviz DOT or Mermaid state diagram.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        _superCommandName: Smrun.name,
        abstract: "Print a machine as a state diagram: Graphviz DOT, Mermaid, or SVG drawn by Graphviz.",
        discussion: """
            Draw the DOT output with Graphviz, e.g. `smrun graph m.yaml | dot -Tsvg > m.svg`; paste the \
            Mermaid output into a ```mermaid block of a Markdown file. Entry and exit effects are \
            written under their state's name; staying transitions (no `to`) are dashed in DOT and \
            marked (stays) in Mermaid. --format svg runs Graphviz's dot (Debian package graphviz) and \
            draws one edge per transition, with data-state and data-transition attributes on the \
            states' and edges' groups. Exit status: 0, or 2 for an invalid machine, an unreadable \
            --state file, a missing or failing dot, or a usage or I/O error.
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

    /// The `--format` values: one per ``Diagram/Format``, and SVG drawn by Graphviz.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// Graphviz DOT.
        case dot
        /// Mermaid `stateDiagram-v2`.
        case mermaid
        /// SVG, drawn from the DOT by Graphviz's `dot`, with hooks for pages.
        case svg
    }

    @Argument(help: "The machine file (YAML, or SCXML for a .scxml file).", completion: .file(extensions: ["yaml", "yml", "scxml"]))
    var machine: String

    @Option(help: "Diagram format: dot (Graphviz), mermaid (stateDiagram-v2) or svg (drawn by Graphviz's dot).")
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
        switch format {
        case .dot: output.append(Diagram.render(compiled, definition: loaded.definition, format: .dot, options: options))
        case .mermaid: output.append(Diagram.render(compiled, definition: loaded.definition, format: .mermaid, options: options))
        case .svg:
            do throws(Graphviz.Failure) {
                output.append(try Graphviz.svg(compiled, definition: loaded.definition, options: options))
            } catch {
                FileHandleOutput.standardError("smrun: \(error.message)\n")
                throw ExitCode(Smrun.Status.invalid)
            }
        }
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
