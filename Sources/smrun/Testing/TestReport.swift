import Statecraft
import StatecraftYAML

/// `smrun test`'s results in its three formats (docs/testing-machines.md).
struct TestReport {
    let run: ScenarioSuite.Run

    var summary: String {
        "\(run.results.count - run.failedCount) passed, \(run.failedCount) failed"
    }

    // MARK: - Text

    /// Each failing scenario: where, the failing step, expected (`-`) and actual (`+`) values,
    /// and the inputs sent up to it.
    func text() -> String {
        var out = ""
        for (file, result) in run.results {
            guard let failure = result.failure else { continue }
            out += "FAIL \(file):\(result.position.line): \(result.name)\n"
            out += failureText(failure, file: file, indent: "  ")
            out += "  inputs: \(result.inputs.isEmpty ? "(none)" : result.inputs.joined(separator: ", "))\n"
        }
        return out
    }

    private func failureText(_ failure: ScenarioResult.Failure, file: String, indent: String) -> String {
        ScenarioResult.text(of: failure, file: file, indent: indent)
    }

    // MARK: - JSON Lines

    /// One object per scenario: file, line, name, whether it passed, and for a failure the
    /// step, its line, its action and each mismatch; the inputs sent.
    func jsonLines() -> String {
        var out = ""
        for (file, result) in run.results {
            out += #"{"file":\#(JSONText.quoted(file)),"line":\#(result.position.line),"scenario":\#(JSONText.quoted(result.name)),"passed":\#(result.passed)"#
            if let failure = result.failure {
                let mismatches = failure.mismatches.map { mismatch in
                    #"{"key":\#(JSONText.quoted(mismatch.key)),"expected":\#(JSONText.quoted(mismatch.expected)),"actual":\#(JSONText.quoted(mismatch.actual))}"#
                }
                out += #","step":\#(failure.step),"stepLine":\#(failure.position.line),"action":\#(JSONText.quoted(failure.action)),"mismatches":[\#(mismatches.joined(separator: ","))]"#
            }
            out += #","inputs":[\#(result.inputs.map(JSONText.quoted).joined(separator: ","))]}"# + "\n"
        }
        return out
    }

    // MARK: - JUnit XML

    /// JUnit XML: a test suite per scenario file, a test case per scenario, a failure element
    /// holding the text report of the failing step.
    func junit() -> String {
        var suites: [(file: String, results: [ScenarioResult])] = []
        for (file, result) in run.results {
            if suites.last?.file == file {
                suites[suites.count - 1].results.append(result)
            } else {
                suites.append((file, [result]))
            }
        }
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<testsuites name="smrun test" tests="\#(run.results.count)" failures="\#(run.failedCount)">"# + "\n"
        for suite in suites {
            let failures = suite.results.count { !$0.passed }
            out += #"  <testsuite name="\#(xml(suite.file))" tests="\#(suite.results.count)" failures="\#(failures)" errors="0">"# + "\n"
            for result in suite.results {
                let attributes = #"name="\#(xml(result.name))" classname="\#(xml(suite.file))" file="\#(xml(suite.file))" line="\#(result.position.line)""#
                guard let failure = result.failure else {
                    out += "    <testcase \(attributes)/>\n"
                    continue
                }
                let message = "step \(failure.step): " + failure.mismatches.map(\.key).joined(separator: ", ")
                let body = failureText(failure, file: suite.file, indent: "") + "inputs: \(result.inputs.joined(separator: ", "))\n"
                out += "    <testcase \(attributes)>\n"
                out += #"      <failure message="\#(xml(message))" type="expectation">\#(xml(body))</failure>"# + "\n"
                out += "    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// Text escaped for XML content and attributes; characters XML 1.0 cannot hold become U+FFFD.
    private func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let allowed = scalar.value >= 0x20 && !(0xFFFE...0xFFFF).contains(scalar.value)
                out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return out
    }
}
