import Foundation
import Testing

/// `--send INPUT[=ARG]` feeds inputs from the command line instead of standard input (docs/cli.md).
@Suite struct SendOptionTests {
    private let car = "machines/self-driving-car.yaml"

    @Test func inputsAreSentInOrder() throws {
        let run = try Smrun.run([car, "--send", "startEngine", "--send", "pickUpPassengers"])
        #expect(run.text == "startEngine: unstarted -> parked\npickUpPassengers: parked -> pickingUpPassengers\n")
        #expect(run.errorText == "")
        #expect(run.exited(0))
    }

    @Test func standardInputIsNotReadWithSend() throws {
        let run = try Smrun.run([car, "--send", "startEngine"], input: .bytes(Data("driveAround\n".utf8)))
        #expect(run.lines == ["startEngine: unstarted -> parked"])
    }

    @Test func argumentsAreTypedAndMayBeJSONQuoted() throws {
        let run = try Smrun.run([
            car, "--format", "json", "--send", "startEngine", "--send", "pickUpPassengers",
            "--send", "passengersHaveEntered=4", "--send", #"driveToLocation="Quoted""#,
        ])
        #expect(run.exited(0))
        let results = try run.jsonLines()
        try #require(results.count == 4)
        #expect(JSONValue.int(results[2]["arg"]) == 4)
        #expect(results[3]["arg"] as? String == "Quoted")
        #expect((results[3]["context"] as? [String: Any])?["location"] as? String == "Quoted")
        for result in results {
            #expect(result["line"] == nil, "--send result with a line: \(result)")
        }
    }

    @Test func argumentMayContainEqualsSigns() throws {
        let run = try Smrun.run([
            car, "--format", "json", "--send", "startEngine", "--send", "pickUpPassengers",
            "--send", "driveToLocation=a=b",
        ])
        let results = try run.jsonLines()
        #expect(results.last?["arg"] as? String == "a=b")
    }

    @Test func rejectedSendExitsWithOne() throws {
        let run = try Smrun.run([car, "--format", "json", "--send", "park", "--send", "passengersHaveEntered=four"])
        #expect(run.exited(1))
        let results = try run.jsonLines()
        #expect(results.map { $0["error"] as? String } == ["no-transition", "bad-argument"])
    }
}
