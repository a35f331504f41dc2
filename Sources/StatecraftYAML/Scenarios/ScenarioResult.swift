import Statecraft

/// How one scenario went: passed, or the first step whose expectations did not hold.
package struct ScenarioResult: Sendable {
    /// One expectation that did not hold, both sides written as a scenario file would write them.
    package struct Mismatch: Sendable, Equatable {
        /// `state`, `effects`, `context.NAME`, ...
        package var key: String
        package var expected: String
        package var actual: String
    }

    /// The step that failed.
    package struct Failure: Sendable {
        /// The step's number, from 1.
        package var step: Int
        package var position: SourcePosition
        /// `send lock`, `send unlock "1234"` or `check`.
        package var action: String
        package var mismatches: [Mismatch]
    }

    package var name: String
    package var position: SourcePosition
    /// `nil` when every step's expectations held.
    package var failure: Failure?
    /// The steps taken: every one, or up to the failing step.
    let stepsTaken: ArraySlice<ScenarioStep>
    let scriptWriter: StepScriptWriter

    /// The inputs sent and waits, in script form (`INPUT`, `INPUT ARG`, `@wait 30s`), up to the
    /// failing step; written when asked for, so that a passing scenario builds no text.
    package var inputs: [String] { stepsTaken.compactMap(scriptWriter.line) }

    package var passed: Bool { failure == nil }

    /// The failing step as `smrun test` prints it: where, what it did, and each expectation
    /// expected (`-`) and actual (`+`), each line after `indent`.
    package static func text(of failure: Failure, file: String, indent: String) -> String {
        var out = "\(indent)step \(failure.step) at \(file):\(failure.position.line): \(failure.action)\n"
        for mismatch in failure.mismatches {
            out += "\(indent)  - \(mismatch.key): \(mismatch.expected)\n"
            out += "\(indent)  + \(mismatch.key): \(mismatch.actual)\n"
        }
        return out
    }
}
