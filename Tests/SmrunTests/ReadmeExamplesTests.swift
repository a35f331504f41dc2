import Foundation
import Testing

/// Every ```console block of README.md and of docs/*.md shows what smrun really prints: each
/// `$ smrun ...` line is run from the package root, and what it prints (standard output, then
/// standard error) must be the lines that follow it, up to the next command or the block's end.
struct ReadmeExamplesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        /// The document, relative to the package root, and the line of the command.
        var document: String
        var line: Int
        var command: String
        var expected: [String] = []
        var testDescription: String { "\(document):\(line): \(command)" }

        /// The arguments after `smrun`, quotes removed, and the file that `<` redirects from.
        var arguments: (words: [String], input: String?) {
            var words = ReadmeExamplesTests.shellWords(String(command.dropFirst("smrun ".count)))
            var input: String?
            if let redirect = words.firstIndex(of: "<"), redirect + 1 < words.count {
                input = words[redirect + 1]
                words.removeSubrange(redirect...(redirect + 1))
            }
            return (words, input)
        }

        /// Whether the command reads or writes a state file, which makes it depend on the
        /// commands before it in its document.
        /// Whether it keeps a file between commands: `--state FILE`, or the `--store FILE` of
        /// `--by-key` and `smrun instances`.
        var usesStateFile: Bool { stateOption != nil }
        var stateOption: String? { ["--state", "--store"].first { arguments.words.contains($0) } }
    }

    /// README.md and every Markdown page of docs/.
    static let documents: [String] = {
        let docs = Paths.packageRoot.appendingPathComponent("docs")
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return ["README.md"] + pages.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    /// A document's lines, numbered from 1.
    static func lines(of document: String) -> [(number: Int, text: String)] {
        let text = (try? String(contentsOf: Paths.packageRoot.appendingPathComponent(document), encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { ($0 + 1, String($1)) }
    }

    /// The ```console blocks, each as its numbered lines.
    static func consoleBlocks(of document: String) -> [[(number: Int, text: String)]] {
        var blocks: [[(number: Int, text: String)]] = []
        var inConsole = false
        for (number, line) in lines(of: document) {
            if line == "```console" {
                inConsole = true
                blocks.append([])
            } else if line.hasPrefix("```") {
                inConsole = false
            } else if inConsole {
                blocks[blocks.count - 1].append((number, line))
            }
        }
        return blocks
    }

    /// A document's examples: each `$ smrun ...` line of a console block and the lines after it.
    static func examples(in document: String) -> [Example] {
        var examples: [Example] = []
        for block in consoleBlocks(of: document) {
            var current: Example?
            for (number, line) in block {
                if line.hasPrefix("$ smrun ") {
                    if let current { examples.append(current) }
                    current = Example(document: document, line: number, command: String(line.dropFirst(2)))
                } else {
                    current?.expected.append(line)
                }
            }
            if let current { examples.append(current) }
        }
        return examples
    }

    static var examples: [Example] { documents.flatMap { examples(in: $0) } }

    /// Splits a command line as a shell does for the simple commands of the docs: blanks
    /// separate words; single quotes keep everything, double quotes keep all but `\"` and `\\`.
    static func shellWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in text {
            if escaped {
                word.append(c)
                escaped = false
            } else if let q = quote {
                if c == q {
                    quote = nil
                } else if q == "\"" && c == "\\" {
                    escaped = true
                } else {
                    word.append(c)
                }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(c)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    @Test func shellWordsKeepQuotedBlanks() {
        #expect(Self.shellWords(#"m.yaml --send 'go=a b' --send "x=\"y\"" < s"#) == ["m.yaml", "--send", "go=a b", "--send", #"x="y""#, "<", "s"])
    }

    /// The front page has a tour, and every reference page that describes smrun shows it at work.
    @Test func theDocumentsHaveExamples() {
        let counts = Dictionary(grouping: Self.examples, by: \.document).mapValues(\.count)
        #expect(counts["README.md", default: 0] >= 4, "\(counts)")
        for page in ["docs/machine-files.md", "docs/semantics.md", "docs/cli.md", "docs/snapshots.md"] {
            #expect(counts[page, default: 0] >= 3, "\(page) has \(counts[page, default: 0]) smrun examples")
        }
        let inDocs = counts.filter { $0.key.hasPrefix("docs/") }.values.reduce(0, +)
        #expect(inDocs >= 30, "docs/ has \(inDocs) smrun examples")
        #expect(Self.examples.allSatisfy { !$0.expected.isEmpty }, "an example shows no output")
    }

    /// A console block shows smrun's output only, and starts with its command: other commands'
    /// output (`cat`, `echo`) belongs in a plain block, where nobody would take it as checked.
    /// The one exception is a block of `curl` requests to `smrun serve`, which
    /// ``ServingExamplesTests`` runs against a live server.
    @Test(arguments: documents)
    func consoleBlocksRunOnlySmrun(_ document: String) {
        for block in Self.consoleBlocks(of: document) {
            let command = block.first?.text.hasPrefix("$ curl ") == true ? "$ curl " : "$ smrun "
            if let first = block.first, !first.text.hasPrefix(command) {
                Issue.record("\(document):\(first.number): a console block does not start with a `$ smrun` command")
            }
            for (number, line) in block where line.hasPrefix("$ ") && !line.hasPrefix(command) {
                Issue.record("\(document):\(number): a console block runs something other than \(command.dropFirst(2))\(line)")
            }
        }
    }

    /// Standard output then standard error, as a terminal shows them when the summary comes last.
    @Test(arguments: examples.filter { !$0.usesStateFile })
    func exampleOutputIsReal(_ example: Example) throws {
        let (words, file) = example.arguments
        let input: StandardInput = file.map { .file(Paths.packageRoot.appendingPathComponent($0)) } ?? .bytes(Data())
        let output = try Smrun.run(words, input: input)
        #expect(output.lines + output.errorLines == example.expected)
    }

    /// Examples with `--state FILE` or `--store FILE` run in their document's order, as a reader would type them,
    /// each document's state files in a fresh directory; the output names FILE as written.
    @Test(arguments: documents)
    func stateFileExamplesAreReal(_ document: String) throws {
        let files = try TemporaryFiles()
        for example in Self.examples(in: document) where example.usesStateFile {
            var (words, file) = example.arguments
            let option = example.stateOption!
            let index = words.firstIndex(of: option)! + 1
            try #require(index < words.count, "\(example.testDescription): \(option) without a file")
            let written = words[index]
            words[index] = files.path(written)
            let input: StandardInput = file.map { .file(Paths.packageRoot.appendingPathComponent($0)) } ?? .bytes(Data())
            let output = try Smrun.run(words, input: input)
            let shown = (output.lines + output.errorLines).map { $0.replacingOccurrences(of: files.path(written), with: written) }
            #expect(shown == example.expected, "\(example.testDescription)")
        }
    }
}
