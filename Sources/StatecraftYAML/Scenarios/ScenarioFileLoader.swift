import Statecraft

/// Loads scenario files: bytes -> YAML nodes -> ``ScenarioDocument``, collecting every diagnostic.
package enum ScenarioFileLoader {
    /// What loading a scenario file produced.
    package struct LoadResult: Sendable {
        /// The file, when its YAML and schema could be read (it may still have errors).
        package var file: ScenarioDocument?
        /// Every problem found, in file order.
        package var diagnostics: [Diagnostic]
    }

    /// Decodes scenario-file text.
    package static func load(bytes: [UInt8], limits: LoadLimits = .default) -> LoadResult {
        let document: YAMLDocument
        do {
            document = try YAMLParser.parseDocument(bytes, limits: limits)
        } catch {
            return LoadResult(file: nil, diagnostics: [error.diagnostic])
        }
        var decoder = ScenarioFileDecoder(document)
        let file = decoder.decode()
        return LoadResult(file: file, diagnostics: decoder.diagnostics.sorted(by: Diagnostic.inFileOrder))
    }

    /// Reads and decodes the scenario file at `path`; an unreadable path is one diagnostic at 1:1.
    package static func load(path: String, limits: LoadLimits = .default) -> LoadResult {
        switch FileReader.contents(of: path, maximumBytes: limits.maximumBytes) {
        case .success(let bytes): load(bytes: bytes, limits: limits)
        case .failure(let diagnostic): LoadResult(file: nil, diagnostics: [diagnostic])
        }
    }

    /// The machine a scenario file names, as a path: relative to the scenario file's folder.
    package static func machinePath(of file: ScenarioDocument, scenarioPath: String) -> String {
        if file.machinePath.hasPrefix("/") { return file.machinePath }
        guard let slash = scenarioPath.lastIndex(of: "/") else { return file.machinePath }
        return String(scenarioPath[...slash]) + file.machinePath
    }

    /// The problems of `file` against the machine it tests (unknown names, mistyped values).
    package static func check(_ file: ScenarioDocument, against machine: CompiledMachine) -> [Diagnostic] {
        ScenarioChecker.check(file, against: machine).sorted(by: Diagnostic.inFileOrder)
    }
}
