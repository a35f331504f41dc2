import Foundation
import Testing

/// `smrun run MACHINE --by-key`: one instance per key over one log (docs/cli.md).
struct KeyedRunTests {
    static let car = "machines/self-driving-car.yaml"

    @Test func eachKeyIsAnInstanceOfItsOwn() throws {
        let output = try Smrun.run([Self.car, "--by-key"], input: .bytes(Data("a startEngine\nb startEngine\na driveAround\nb park\n".utf8)))
        #expect(
            output.lines == [
                "a: startEngine: unstarted -> parked",
                "b: startEngine: unstarted -> parked",
                "a: driveAround: parked -> drivingAround",
                "b: line 4: park: parked: rejected: no-transition: no transition for 'park' from 'parked'",
            ])
        #expect(output.exited(1))
    }

    /// Each instance's results are what a plain run of its own lines prints, for a flat
    /// machine, statecharts (a parallel one, one with deep history) and machines with timers.
    /// Two instances take the script's lines in turn, `y` skipping every third input (so that
    /// the two differ) and the `@wait` lines once, for both: each one's configuration, history
    /// records, context, clock and timers are exchanged out and back in between its lines.
    /// (Each script starts with an input, which creates both: an instance starts at the log's
    /// clock, a plain run at 0.)
    @Test(arguments: ["self-driving-car.yaml", "media-player.yaml", "microwave.scxml", "stopwatch.scxml", "login-session.yaml"])
    func anInstanceAgreesWithAPlainRunOfItsLines(machine: String) throws {
        let machinePath = "machines/\(machine)"
        let scriptPath = "machines/" + machine.split(separator: ".")[0] + ".script"
        let script = try String(contentsOf: Paths.packageRoot.appendingPathComponent(scriptPath), encoding: .utf8)
        let inputs = script.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        var log = ""
        var yInputs: [Substring] = []
        for (index, input) in inputs.enumerated() {
            if input.hasPrefix("@") {
                log += "\(input)\n"
                yInputs.append(input)
                continue
            }
            log += "x \(input)\n"
            if index % 3 != 2 {
                log += "y \(input)\n"
                yInputs.append(input)
            }
        }
        let keyed = try Smrun.run([machinePath, "--by-key", "--format", "json"], input: .bytes(Data(log.utf8)))
        #expect(keyed.lines.allSatisfy { $0.hasPrefix(#"{"key":"#) })
        for (key, keyInputs) in [("x", inputs), ("y", yInputs)] {
            let plain = try Smrun.run([machinePath, "--format", "json"], input: .bytes(Data(keyInputs.joined(separator: "\n").utf8)))
            #expect(plain.lines.count > 5)
            let keyLines = try keyed.jsonLines().filter { $0["key"] as? String == key }
            #expect(keyLines.count == plain.lines.count, "\(machine), \(key)")
            for (keyedLine, plainLine) in zip(keyLines, try plain.jsonLines()) {
                // The line numbers are the log's, and `key` comes first.
                var keyedLine = keyedLine
                var plainLine = plainLine
                keyedLine["key"] = nil
                keyedLine["line"] = nil
                plainLine["line"] = nil
                #expect(NSDictionary(dictionary: keyedLine) == NSDictionary(dictionary: plainLine), "\(machine), \(key)")
            }
        }
    }

    /// `@wait` moves every instance's clock and fires their timers in due order across
    /// instances; an instance created later starts at the log's clock.
    @Test func waitsFireTimersInDueOrderAcrossInstances() throws {
        let log = "l1 button\n@wait 30s\nl2 button\n@wait 30s\n"
        let output = try Smrun.run(["machines/timed-traffic-light.yaml", "--by-key"], input: .bytes(Data(log.utf8)))
        #expect(
            output.lines == [
                "l1: start: -> red / stop",
                "l1: button: red -> red",
                "l1: after 30s: red -> green / go",
                "l2: start: -> red / stop",
                "l2: button: red -> red",
                "l1: after 25s: green -> yellow / endCrossing, slow",
                "l2: after 30s: red -> green / go",
                "l1: after 5s: yellow -> red / stop",
            ])
    }

    /// The results of the timers that a `@wait` line fires carry that line's number, as in a
    /// plain run, not the number of the instance's last input.
    @Test func timersFiredByAWaitCarryItsLine() throws {
        let log = "l1 button\n# a comment\n\n@wait 30s\n"
        let output = try Smrun.run(["machines/timed-traffic-light.yaml", "--by-key", "--format", "json"], input: .bytes(Data(log.utf8)))
        let timer = try #require(try output.jsonLines().first { $0["after"] != nil })
        #expect(timer["key"] as? String == "l1")
        #expect(timer["line"] as? Int == 4)
    }

    /// A keyed `@wait` moves that instance's clock alone; a later `@wait` of the whole log
    /// that ends before it leaves that clock where it is (it once trapped), and moves the others.
    @Test func aLogWaitShorterThanAnInstancesOwnLeavesItsClock() throws {
        let log = "a button\nb button\na @wait 30s\n@wait 1s\n@wait 30s\n"
        let output = try Smrun.run(["machines/timed-traffic-light.yaml", "--by-key"], input: .bytes(Data(log.utf8)))
        #expect(
            output.lines == [
                "a: start: -> red / stop",
                "a: button: red -> red",
                "b: start: -> red / stop",
                "b: button: red -> red",
                "a: after 30s: red -> green / go",
                "b: after 30s: red -> green / go",
            ])
        #expect(output.exited(0))
    }

    /// A line with a key and nothing after it is skipped with a message naming it, and creates
    /// no instance.
    @Test func aKeyWithoutAnInputIsSkipped() throws {
        let output = try Smrun.run([Self.car, "--by-key"], input: .bytes(Data("startEngine\ncar startEngine\n".utf8)))
        #expect(output.lines == ["car: startEngine: unstarted -> parked"])
        #expect(output.errorText.contains("line 1: skipped: 'startEngine' has no input after it"))
        #expect(output.exited(1))
    }

    /// A key may start with `@`, as the server's may: only a first word that is `@wait` itself
    /// is the whole log's wait.
    @Test func keysMayStartWithAnAt() throws {
        let log = "@a startEngine\n@wait 1s\n@waiting startEngine\n@a driveAround\n@a @wait 1s\n"
        let output = try Smrun.run([Self.car, "--by-key"], input: .bytes(Data(log.utf8)))
        #expect(output.exited(0), "\(output.errorText)")
        #expect(
            output.lines == [
                "@a: startEngine: unstarted -> parked",
                "@waiting: startEngine: unstarted -> parked",
                "@a: driveAround: parked -> drivingAround",
            ])
    }

    @Test func blankLinesCommentsAndBadWaitsAreAPlainRunsToo() throws {
        let log = "# a comment\n\n   car startEngine\n@wait soon\n"
        let output = try Smrun.run([Self.car, "--by-key"], input: .bytes(Data(log.utf8)))
        #expect(output.lines.first == "car: startEngine: unstarted -> parked")
        #expect(output.lines.count == 2)
        #expect(output.lines[1].hasPrefix("line 4: @wait:") && output.lines[1].contains("is not a duration"))
    }

    @Test func optionsThatNameOneInstanceAreUsageErrors() throws {
        for options in [["--send", "go"], ["--state", "s.json"], ["--clock", "real"]] {
            let output = try Smrun.run([Self.car, "--by-key"] + options)
            #expect(output.exited(2), "\(options)")
            #expect(output.errorText.contains("--by-key"), "\(options)")
        }
    }
}
