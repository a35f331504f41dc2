import Foundation
import StatecraftYAML
import Testing

@testable import Statecraft

/// A microstep of one transition enters what the chart worked out at load (``StateChart``'s
/// static entry sets); any other microstep works it out as it goes. The two must agree, or a
/// machine would enter different states depending on how many transitions a step takes.
@Suite struct StaticEntrySetTests {
    /// Nested compound states with `initial` lists, parallel regions entered through one of
    /// them or from outside, multiple targets, internal transitions, and history on the way.
    static let rich = """
        machine: rich
        initial: idle
        inputs: [a, b, c, d, e, f, g, h, i, j]
        states:
          idle:
          work:
            initial: [left2, right1]
            states:
              split:
                parallel: true
                states:
                  left:
                    states:
                      left1:
                      left2:
                        states: [deep1, deep2]
                  right:
                    states: [right1, right2]
                  third:
                    states: [third1, third2]
              remembered: { history: deep }
              after:
                states:
                  inner: { states: [innermost] }
          done: { final: true }
        transitions:
          - a | idle => work
          - b | idle => deep2
          - { input: c, from: idle, to: [deep1, right2] }
          - d | left1 => after
          - { input: e, from: work, to: left2, type: internal }
          - f | after => remembered
          - g | work => done
          - b | right1 => right2
          - c | inner => split
          - h | deep1 => left1
          - i | work => idle
          - j | idle => remembered
        """

    @Test func eachStaticEntrySetIsWhatTheRunnerWorksOut() throws {
        var files = [Self.rich]
        let machines = URLPath.packageRoot + "/machines"
        for name in try FileManager.default.contentsOfDirectory(atPath: machines).sorted() where name.hasSuffix(".yaml") {
            files.append(try String(contentsOfFile: machines + "/" + name, encoding: .utf8))
        }
        var checked = 0
        for text in files {
            guard let machine = YAMLFile.load(bytes: Array(text.utf8), defaultName: "m").machine, let chart = machine.chart else { continue }
            for index in chart.transitions.indices {
                guard let entered = chart.staticEntrySet(of: index) else { continue }
                var runner = ChartRunner(machine)
                runner.enabled = [Int32(index)]
                runner.enabledDomains = [chart.transitions[index].domain]
                runner.addEntrySets()
                let worked = (0..<chart.tree.count).filter { ChartRunner.contains(runner.entrySet, $0) }
                #expect(worked == entered.map(Int.init), "\(machine.name): transition \(index)")
                checked += 1
            }
        }
        // The rich machine alone has nine transitions without a history on the way.
        #expect(checked >= 9)
    }

    @Test func aTransitionThroughAHistoryIsWorkedOutAtRunTime() throws {
        let machine = try ChartTrace.machine(Self.rich)
        let chart = try #require(machine.chart)
        let throughHistory = try #require(chart.transitions.firstIndex { $0.targetsHistory })
        #expect(chart.staticEntrySet(of: throughHistory) == nil)
    }

    @Test func enteringAParallelStateFromOneRegionEntersTheOthersByDefault() throws {
        #expect(
            try ChartTrace.run(Self.rich, ["c", "c"]) == [
                "c: idle -> deep1, right2, third1",
                "c: deep1, right2, third1: rejected: no-transition",
            ])
        #expect(
            try ChartTrace.run(Self.rich, ["a", "b", "e"]) == [
                "a: idle -> deep1, right1, third1",
                "b: deep1, right1, third1 -> deep1, right2, third1",
                "e: deep1, right2, third1 -> deep1, right1, third1",
            ])
    }

    @Test func aTransitionToAHistoryEntersWhatItRecordedOrItsDefault() throws {
        #expect(
            try ChartTrace.run(Self.rich, ["a", "b", "h", "i", "j"]) == [
                "a: idle -> deep1, right1, third1",
                "b: deep1, right1, third1 -> deep1, right2, third1",
                "h: deep1, right2, third1 -> left1, right2, third1",
                "i: left1, right2, third1 -> idle",
                "j: idle -> left1, right2, third1",
            ])
        // `work` was never left, so its history holds nothing yet: its default is `work`'s initial.
        #expect(
            try ChartTrace.run(Self.rich, ["a", "h", "d", "f"]) == [
                "a: idle -> deep1, right1, third1",
                "h: deep1, right1, third1 -> left1, right1, third1",
                "d: left1, right1, third1 -> innermost",
                "f: innermost -> deep1, right1, third1",
            ])
    }
}
