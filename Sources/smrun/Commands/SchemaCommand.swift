import ArgumentParser

/// `smrun schema`: prints the JSON Schema of machine files, for editors.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of machine files, for editors.",
        discussion: """
            Point an editor at it: with yaml-language-server (VS Code's YAML extension, Neovim, Helix...), \
            put `# yaml-language-server: $schema=PATH` on a machine file's first line, or map files to it \
            in VS Code's `yaml.schemas` setting. The schema checks keys, kinds of values, enums and names; \
            `smrun validate` checks everything else.
            """
    )

    func run() throws {
        var output = OutputBuffer(fd: 1)
        output.append(MachineFileSchema.text)
        output.append(UInt8(ascii: "\n"))
        output.flush()
    }
}
