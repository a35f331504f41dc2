import SmrunCore
import ArgumentParser
import Statecraft
import StatecraftSCXML
import StatecraftYAML

/// `smrun export --format yaml|scxml MACHINE`: writes a machine in the other format (docs/scxml.md).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        _superCommandName: Smrun.name,
        abstract: "Write a machine as a YAML machine file or as an SCXML document.",
        discussion: """
            The machine is checked first: an invalid one is refused with its diagnostics. The output \
            loads back as a machine that gives the same results on every input. Exit status: 0 on \
            success, 2 for an invalid machine, one that SCXML cannot express, or a usage error.
            """
    )

    @Argument(help: "The machine file (YAML, or SCXML for a .scxml file).", completion: .file(extensions: ["yaml", "yml", "scxml"]))
    var machine: String

    @Option(help: "The format to write: yaml or scxml.")
    var format: MachineFormat

    @OptionGroup var limits: MachineOptions

    func run() throws {
        let loaded = limits.load(machine)
        DiagnosticPrinter.printToStandardError(loaded.diagnostics, file: machine)
        guard loaded.machine != nil, let definition = loaded.definition else { throw ExitCode(Smrun.Status.invalid) }
        let text: String
        switch format {
        case .yaml:
            text = MachineFileWriter.text(of: definition)
        case .scxml:
            do {
                text = try SCXMLWriter.text(of: definition)
            } catch {
                FileHandleOutput.standardError("smrun export: \(error)\n")
                throw ExitCode(Smrun.Status.invalid)
            }
        }
        var output = OutputBuffer(fd: 1)
        output.append(text)
        output.flush()
    }
}
