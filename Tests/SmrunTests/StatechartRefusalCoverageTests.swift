import Foundation
import Testing

/// A statechart's `reject:` transitions in `smrun test --coverage` and `smrun paths` (issue 35):
/// covered when a scenario's input selects them, shown as refusals, never as `=> (stays)`.
@Suite struct StatechartRefusalCoverageTests {
    private static let machine = """
        initial: cart
        inputs:
          checkout:
          cancel:
          pay:
        states:
          cart:
          checkingOut:
            initial: paying
            states:
              paying:
              shipped:
          cancelled: { final: true }
        transitions:
          - checkout | cart => checkingOut
          - pay | paying => shipped
          - input: cancel
            from: shipped
            reject: a shipped order cannot be cancelled
          - cancel | checkingOut => cancelled
        """

    private static func scenarios(refusing: Bool) -> String {
        """
        machine: order.yaml
        scenarios:
          - name: ships
            steps:
              - send: checkout
              - send: pay
                expect: { states: [shipped] }
        """ + (refusing ? "\n      - send: cancel\n        expect: { ok: false, error: refused, states: [shipped] }\n" : "\n")
    }

    @Test func aRefusalAScenarioSelectsIsCovered() throws {
        let files = try TemporaryFiles()
        _ = try files.file("order.yaml", Self.machine)
        let tests = try files.file("order.test.yaml", Self.scenarios(refusing: true))
        let run = try Smrun.run(["test", "--coverage", tests])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.lines.contains("  transitions  3/4 (75%)"), "\(run.text)")
        #expect(!run.text.contains("cancel | shipped"), "\(run.text)")
        #expect(run.text.contains("never taken: \(files.path("order.yaml")):20: cancel | checkingOut => cancelled"), "\(run.text)")
    }

    @Test func aRefusalNeverSelectedIsShownAsARefusal() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("order.yaml", Self.machine)
        let tests = try files.file("order.test.yaml", Self.scenarios(refusing: false))
        let text = try Smrun.run(["test", "--coverage", tests])
        #expect(text.lines.contains("    never taken: \(machine):17: cancel | shipped => (refused)"), "\(text.text)")
        #expect(!text.text.contains("(stays)"), "\(text.text)")
        let json = try Smrun.run(["test", "--coverage", "--format", "json", tests])
        let coverage = try #require(try json.jsonLines().compactMap { $0["coverage"] as? [String: Any] }.first)
        let missed = try #require((coverage["transitions"] as? [String: Any])?["missed"] as? [[String: Any]])
        let refusal = try #require(missed.first { JSONValue.int($0["line"]) == 17 })
        #expect(refusal["reject"] as? String == "a shipped order cannot be cancelled")
        #expect(refusal["to"] is NSNull)
        #expect(missed.first { JSONValue.int($0["line"]) == 20 }?["reject"] == nil)
    }

    /// `smrun paths` names the refusal as one, and its scenario expects the refusal: saved as a
    /// scenario file, it passes and covers every line, the refusal's included.
    @Test func pathsShowARefusalAndTheirScenarioExpectsIt() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("order.yaml", Self.machine)
        let script = try Smrun.run(["paths", machine])
        #expect(script.lines.contains("# to line 17: cancel | shipped => (refused)"), "\(script.text)")
        let test = try Smrun.run(["paths", "--format", "test", machine])
        #expect(test.text.contains("""
              - name: "to line 17: cancel | shipped => (refused)"
                steps:
                  - send: checkout
                    expect: { states: [paying] }
                  - send: pay
                    expect: { states: [shipped] }
                  - send: cancel
                    expect: { ok: false, error: refused, states: [shipped] }
            """), "\(test.text)")
        let scenarios = try files.file("paths.test.yaml", test.text)
        let run = try Smrun.run(["test", "--coverage", scenarios])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
        #expect(run.lines.contains("  transitions  4/4 (100%)"), "\(run.text)")
    }
}
