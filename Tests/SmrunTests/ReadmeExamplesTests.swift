import Foundation
import Testing

/// Every `console` block of README.md that runs smrun shows what smrun really prints.
struct ReadmeExamplesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var command: String
        var expected: [String]
        var testDescription: String { command }
    }

    /// The README's examples: a `$ smrun ...` line followed by its output, in ```console blocks.
    static var examples: [Example] {
        let readme = (try? String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        var examples: [Example] = []
        var inConsole = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == "```console" {
                inConsole = true
            } else if line.hasPrefix("```") {
                inConsole = false
            } else if inConsole, line.hasPrefix("$ smrun ") {
                examples.append(Example(command: String(line.dropFirst(2)), expected: []))
            } else if inConsole, !examples.isEmpty {
                examples[examples.count - 1].expected.append(line)
            }
        }
        return examples
    }

    @Test func theReadmeHasExamples() {
        #expect(Self.examples.count >= 4)
    }

    /// Standard output then standard error, as a terminal shows them when the summary comes last.
    @Test(arguments: examples)
    func exampleOutputIsReal(_ example: Example) throws {
        var words = example.command.split(separator: " ").map(String.init).dropFirst()
        var input = StandardInput.bytes(Data())
        if let redirect = words.firstIndex(of: "<") {
            input = .file(Paths.packageRoot.appendingPathComponent(words[redirect + 1]))
            words.removeSubrange(redirect...(redirect + 1))
        }
        let output = try Smrun.run(Array(words), input: input)
        #expect(output.lines + output.errorLines == example.expected)
    }
}
