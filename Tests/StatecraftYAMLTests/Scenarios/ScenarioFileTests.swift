import Foundation
import Statecraft
import StatecraftYAML
import TestSupport
import Testing

/// Scenario files run from Swift (``ScenarioFile``), as a package's own `swift test` runs its
/// machines' scenarios.
struct ScenarioFileTests {
    // The DocC article "Testing with scenario files" shows this test as it is written here
    // (docCArticleShowsThisTest checks it).
    @Test func mediaPlayerScenarios() throws {
        let report = try ScenarioFile.run(path: "machines/scenarios/media-player.test.yaml")
        #expect(report.passed, "\(report)")
    }

    @Test func docCArticleShowsThisTest() throws {
        let article = try String(contentsOfFile: URLPath.packageRoot + "/Sources/Statecraft/Statecraft.docc/TestingWithScenarioFiles.md", encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let example = try #require(article.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let body = example.split(separator: "\n").filter { !$0.hasPrefix("import ") && !$0.isEmpty }
        #expect(!body.isEmpty)
        for line in body { #expect(source.contains(line), "the article's line '\(line)' is not in this test") }
    }

    @Test func aFailingScenarioIsReportedAsSmrunTestReportsIt() throws {
        let path = try Self.scenarioFile(
            """
            machine: \(URLPath.packageRoot)/machines/media-player.yaml
            scenarios:
              - name: plays
                steps:
                  - send: play
                    expect: { states: [sound, hd] }
              - name: mutes at once
                steps:
                  - send: mute
                    expect: { state: muted }
            """)
        let report = try ScenarioFile.run(path: path)
        #expect(!report.passed)
        #expect(report.scenarios.map(\.passed) == [true, false])
        #expect(report.scenarios[1].line == 7)
        #expect(
            report.description == """
                1 passed, 1 failed
                FAIL \(path):7: mutes at once
                step 1 at \(path):9: send mute
                  - state: muted
                  + state: stopped

                """)
    }

    @Test func aScenarioNamingWhatTheMachineLacksIsALoadError() throws {
        let path = try Self.scenarioFile(
            """
            machine: \(URLPath.packageRoot)/machines/media-player.yaml
            scenarios:
              - name: plays
                steps:
                  - send: plya
            """)
        #expect {
            try ScenarioFile.run(path: path)
        } throws: { error in
            "\(error)".contains("5:") && "\(error)".contains("'plya'")
        }
    }

    @Test func anSCXMLMachineIsPassedIn() throws {
        let path = URLPath.packageRoot + "/machines/scenarios/microwave.test.yaml"
        #expect {
            try ScenarioFile.run(path: path)
        } throws: { error in
            "\(error)".contains("SCXMLFile")
        }
    }

    private static func scenarioFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString).test.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
