import Foundation
import Testing

/// The repository is its own reference: no tracked file points at a document outside it (the
/// design notes the project started from, kept beside the repository and not cloned with it).
/// The reference is docs/; a comment that needs one points there.
struct RepositoryReferenceTests {
    /// What a reference to the outside document looks like. Built from pieces, so that this
    /// file does not match its own patterns.
    static let outsideDocument = "DES" + "IGN"
    static let outsideFolder = ".." + "/shared"

    /// The 1-based numbers of the lines of `text` that refer to the outside document: its
    /// folder, or a section of it ("§4", "3.2").
    static func outsideReferences(in text: String) -> [Int] {
        var found: [Int] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.contains(outsideFolder) || line.contains(outsideDocument + " §") || refersToSection(line) {
                found.append(index + 1)
            }
        }
        return found
    }

    /// Whether `line` holds the document's name followed by a space and a digit.
    private static func refersToSection(_ line: Substring) -> Bool {
        var rest = line[...]
        while let range = rest.range(of: outsideDocument + " ") {
            if let next = rest[range.upperBound...].first, next.isASCII, next.isNumber { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// The repository's tracked files (`git ls-files`), or, without git, every file under the
    /// package root but build products and the fuzzers' work.
    static func trackedFiles() throws -> [String] {
        if let git = executable("git") {
            let child = try Subprocess(git, ["ls-files", "-z"], directory: Paths.packageRoot.path)
            child.closeInput()
            let output = Subprocess.drain(child.output)
            let errors = Subprocess.drain(child.errorOutput)
            let termination = child.wait(timeout: .seconds(60))
            _ = errors.wait()
            let listed = output.wait()
            if termination?.status == 0 && termination?.signalled == false && !listed.isEmpty {
                return listed.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            }
        }
        var files: [String] = []
        let root = Paths.packageRoot.standardizedFileURL.path
        let skipped: Set<String> = [".git", "fuzz", ".swiftpm"]
        guard let walk = FileManager.default.enumerator(atPath: root) else { return [] }
        while let path = walk.nextObject() as? String {
            let first = String(path.prefix { $0 != "/" })
            if first.hasPrefix(".build") || skipped.contains(first) {
                walk.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files
    }

    private static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func noTrackedFileReferencesTheOutsideDocument() throws {
        let files = try Self.trackedFiles()
        #expect(files.contains("README.md") && files.contains("Package.swift"), "not the repository's files: \(files.prefix(10))")
        var references: [String] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: Paths.packageRoot.appendingPathComponent(file).path),
                !data.prefix(8000).contains(0)
            else { continue }
            for line in Self.outsideReferences(in: String(decoding: data, as: UTF8.self)) {
                references.append("\(file):\(line)")
            }
        }
        #expect(references.isEmpty, "refer to docs/ instead of the outside document:\n\(references.joined(separator: "\n"))")
    }

    /// The check finds each form of reference, and leaves alone what only looks alike.
    @Test func theCheckFindsEachForm() {
        let document = Self.outsideDocument
        let text = [
            "see \(Self.outsideFolder)/\(document).md", "(\(document) §3.5)", "(\(document) 2)", "a \(document) choice",
            "docs/semantics.md", "(\(document) 3.2, 3.7)",
        ].joined(separator: "\n")
        #expect(Self.outsideReferences(in: text) == [1, 2, 3, 6])
    }
}
