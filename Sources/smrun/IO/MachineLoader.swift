import ArgumentParser
import Statecraft
import StatecraftSCXML
import StatecraftYAML

/// The two formats smrun reads machines in: YAML machine files and SCXML documents
/// (`--machine-format`).
enum MachineFormat: String, CaseIterable, ExpressibleByArgument {
    case yaml
    case scxml

    /// The format a path's extension names: `.scxml` is SCXML, anything else YAML.
    static func of(path: String) -> MachineFormat {
        path.hasSuffix(".scxml") ? .scxml : .yaml
    }
}

/// Loads a machine in the format its extension names, or the one given.
enum MachineLoader {
    static func load(_ path: String, format: MachineFormat? = nil, limits: LoadLimits) -> LoadResult {
        switch format ?? MachineFormat.of(path: path) {
        case .yaml: YAMLFile.load(path: path, limits: limits)
        case .scxml: SCXMLFile.load(path: path, limits: limits)
        }
    }
}
