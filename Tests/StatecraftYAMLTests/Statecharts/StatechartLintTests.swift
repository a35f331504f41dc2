import Statecraft
import StatecraftYAML
import Testing

/// `validate`'s warnings for statecharts think in configurations.
struct StatechartLintTests {
    static func warnings(_ yaml: String) throws -> [String] {
        let loaded = YAMLFile.load(bytes: Array(yaml.utf8), defaultName: "lint")
        let machine = try #require(loaded.machine, "\(loaded.diagnostics)")
        return MachineLinter.lint(machine, definition: try #require(loaded.definition)).map { "\($0.position.map { "\($0)" } ?? "-") \($0.code.rawValue)" }
    }

    @Test func aStateIsLeftThroughItsAncestorsOrAnotherRegion() throws {
        let yaml = """
            initial: p
            states:
              p:
                parallel: true
                states:
                  left: { states: [a, stuck] }
                  right: { states: [b, quit] }
              done: { final: true }
              nested: { states: [inner] }
            transitions:
              - go | a => stuck
              - go | b => quit
              - bye | quit => done
              - in | quit => nested
            """
        // `stuck` is left when `right`'s `quit` leaves `p`; `inner` by nothing; `b` and `a` move.
        #expect(try Self.warnings(yaml) == ["9:22 trap-state"])
    }

    @Test func aTransitionInsideAnotherRegionDoesNotFreeThisOne() throws {
        let yaml = """
            initial: p
            states:
              p:
                parallel: true
                states:
                  left: { states: [a, stuck] }
                  right: { states: [b, c] }
            transitions:
              - go | a => stuck
              - go | b => c
              - back | c => b
            """
        #expect(try Self.warnings(yaml) == ["6:27 trap-state"])
    }

    @Test func statesNoReachableConfigurationHoldsAndLoneRegionsAreReported() throws {
        let yaml = """
            initial: a
            states:
              a: { states: [a1, a2] }
              b:
                parallel: true
                states:
                  only: { states: [x] }
            transitions:
              - go | a1 => a2
              - back | a => a1
            """
        #expect(try Self.warnings(yaml) == ["4:3 unreachable-state", "4:3 single-region", "7:7 unreachable-state", "7:24 unreachable-state", "7:24 trap-state"])
    }
}
