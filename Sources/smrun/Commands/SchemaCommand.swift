import SmrunCore
import ArgumentParser

/// `smrun schema`: prints the JSON Schema of machine files, for editors.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        _superCommandName: Smrun.name,
        abstract: "Print the JSON Schema (draft 2020-12) of machine files, for editors.",
        discussion: """
            Point an editor at it: with yaml-language-server (VS Code's YAML extension, Neovim, Helix...), \
            put `# yaml-language-server: $schema=PATH` on a machine file's first line, or map files to it \
            in VS Code's `yaml.schemas` setting. The schema checks keys, kinds of values, enums and names; \
            `smrun validate` checks everything else.
            """
    )

    @Flag(help: "Print the schema of scenario files (*.test.yaml, for smrun test) instead.")
    var scenarios = false

    func run() throws {
        var output = OutputBuffer(fd: 1)
        output.append(scenarios ? ScenarioFileSchema.text : MachineFileSchema.text)
        output.append(UInt8(ascii: "\n"))
        output.flush()
    }
}
