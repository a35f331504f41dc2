#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Expands `smrun validate`'s arguments: a directory stands for every `*.yaml` and `*.yml` file
/// under it, in sorted order; anything else is taken as given (an unreadable path is reported
/// when it is loaded).
enum MachineFileFinder {
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The machine files under `directory`, sorted, with `directory` as their prefix.
    static func machineFiles(under directory: String) -> [String] {
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var found: [String] = []
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let path = prefix + name
            if isDirectory(path) {
                found += machineFiles(under: path)
            } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                found.append(path)
            }
        }
        return found.sorted()
    }
}
