#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File names for TAB after `:load` and `:save`: the entries of the typed path's directory
/// that start with its last component, directories with a `/` after them. Hidden entries are
/// offered only when the typed name starts with `.`.
enum FileNameCompletion {
    static func candidates(for typed: String) -> [SessionCompletion.Candidate] {
        let slash = typed.lastIndex(of: "/")
        let directory = slash.map { String(typed[...$0]) } ?? ""
        let base = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        guard let stream = opendir(directory.isEmpty ? "." : directory) else { return [] }
        defer { closedir(stream) }
        var candidates: [SessionCompletion.Candidate] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
            guard name != ".", name != "..", name.hasPrefix(base), !name.hasPrefix(".") || base.hasPrefix(".") else { continue }
            let path = directory + name
            var status = stat()
            let isDirectory = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
            candidates.append(.init(word: path + (isDirectory ? "/" : ""), addsSpace: false))
        }
        return candidates.sorted { $0.word < $1.word }
    }
}
