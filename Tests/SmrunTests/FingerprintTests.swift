import Foundation
import Testing

/// The fingerprint smrun saves with `--state` for every example machine and fixture stays what
/// it was before flat machines and statecharts ran on one engine, so that saved state files
/// keep resuming (Fixtures/fingerprints.txt, pinned from smrun 24e3d35).
@Suite struct FingerprintTests {
    static let pinned: [(fingerprint: String, file: String)] = {
        let text = (try? String(contentsOfFile: Paths.fixture("fingerprints.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), String(parts[1]))
        }
    }()

    @Test func everyExampleAndFixtureIsPinned() {
        #expect(Self.pinned.count >= 39)
        #expect(Self.pinned.contains { $0.file.hasSuffix(".scxml") } && Self.pinned.contains { $0.file == "machines/media-player.yaml" })
    }

    @Test(arguments: pinned.map(\.file))
    func theSavedFingerprintIsUnchanged(file: String) throws {
        let files = try TemporaryFiles()
        let path = files.path("state.json")
        let run = try Smrun.run([file, "--state", path])
        #expect(run.exited(0) || run.exited(1), "\(run.errorText)")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        let expected = Self.pinned.first { $0.file == file }?.fingerprint
        #expect(saved?["fingerprint"] as? String == expected)
    }
}
