import Foundation
import Testing

/// Replays instances' histories through `smrun run --by-key` (one run for all of them) and
/// checks that each served instance is what its history makes: its state and its context.
enum HistoryReplay {
    /// `histories` and `served` are by instance key; `machine` is the machine file. A history's
    /// inputs become `KEY INPUT ARG` lines and its timers `@wait AFTER` lines, one instance
    /// after the other, so that each `@wait` fires only the timer of its own instance (every
    /// timer of the instances before it has fired).
    static func expectServedStatesMatch(
        machine: String, histories: [String: [[String: Any]]], served: [String: [String: Any]],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var script = ""
        for (key, history) in histories.sorted(by: { $0.key < $1.key }) {
            for entry in history where JSONValue.bool(entry["start"]) != true {
                if let input = entry["input"] as? String {
                    script += "\(key) \(input)" + (JSONValue.int(entry["arg"]).map { " \($0)" } ?? "") + "\n"
                } else if let after = (entry["timer"] as? [String: Any])?["after"] as? String {
                    script += "@wait \(after)\n"
                } else {
                    Issue.record("\(key): an entry neither an input nor a timer with 'after': \(entry)", sourceLocation: sourceLocation)
                }
            }
        }
        let replay = try Smrun.run([machine, "--by-key", "--format", "json"], input: .bytes(Data(script.utf8)), timeout: .seconds(120))
        #expect(replay.exited(0), "\(replay.errorText.prefix(500))", sourceLocation: sourceLocation)
        var replayed: [String: [String: Any]] = [:]
        for result in try replay.jsonLines() {
            guard let key = result["key"] as? String else { continue }
            replayed[key] = result
        }
        let sorted: (Any?) throws -> Data = { try JSONSerialization.data(withJSONObject: $0 ?? [:], options: [.sortedKeys]) }
        for (key, history) in histories {
            let instance = try #require(served[key], "\(key) is not served", sourceLocation: sourceLocation)
            guard history.count > 1 else { continue }
            let last = try #require(replayed[key], "\(key): the replay printed nothing", sourceLocation: sourceLocation)
            let state = (last["to"] ?? last["from"]) as? String
            #expect(state == instance["state"] as? String, "\(key): replayed \(state ?? "?"), served \(instance["state"] ?? "?")", sourceLocation: sourceLocation)
            #expect(
                try sorted(last["context"]) == sorted(instance["context"]),
                "\(key): replayed \(last["context"] ?? "?"), served \(instance["context"] ?? "?")", sourceLocation: sourceLocation)
        }
    }
}
