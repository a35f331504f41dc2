#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Expands `smrun validate`'s and `smrun test`'s arguments: a directory stands for every machine
/// file (`*.yaml`, `*.yml`, `*.scxml`, but not the scenario files `*.test.yaml`) or every scenario file
/// under it, in sorted order; anything else is taken as given (an unreadable path is reported
/// when it is loaded).
enum MachineFileFinder {
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The machine files under `directory`, sorted, with `directory` as their prefix.
    static func machineFiles(under directory: String) -> [String] {
        files(under: directory) { name in
            (name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.hasSuffix(".scxml")) && !isScenarioFile(name)
        }
    }

    /// The scenario files (`*.test.yaml`, `*.test.yml`) under `directory`, sorted. Hidden
    /// folders (`.build`, `.git`) are not searched: `smrun test` with no argument searches the
    /// current directory, often a project's root.
    static func scenarioFiles(under directory: String) -> [String] {
        files(under: directory, skippingHidden: true, matching: isScenarioFile)
    }

    static func isScenarioFile(_ name: String) -> Bool {
        name.hasSuffix(".test.yaml") || name.hasSuffix(".test.yml")
    }

    private static func files(under directory: String, skippingHidden: Bool = false, matching: (String) -> Bool) -> [String] {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var found: [String] = []
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." || (skippingHidden && name.hasPrefix(".")) { continue }
            let path = prefix + name
            if isDirectory(path) {
                found += files(under: path, skippingHidden: skippingHidden, matching: matching)
            } else if matching(name) {
                found.append(path)
            }
        }
        return found.sorted()
    }
}
