import Statecraft
import StatecraftSCXML
import StatecraftYAML
import Testing

/// The SCXML snippets of the DocC articles (Statecraft.docc: RunningMachineFiles.md,
/// TestingWithScenarioFiles.md), as written there, run from the package root.
struct ArticleExampleTests {
    @Test func theStopwatchRuns() throws {
        let watch = try StateMachine(SCXMLFile.load(path: "machines/stopwatch.scxml"))
        watch.send("start")
        watch.send("tick")
        #expect(watch.context["elapsed"] == .int(1))
    }

    @Test func microwaveScenarios() throws {
        let microwave = try #require(SCXMLFile.load(path: "machines/microwave.scxml").machine)
        let report = try ScenarioFile.run(path: "machines/scenarios/microwave.test.yaml", machine: microwave)
        #expect(report.passed, "\(report)")
    }
}
