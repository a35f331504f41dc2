import Testing

/// Results are flushed before smrun waits for the next line, so a program can drive smrun
/// through a pipe one input at a time.
@Suite struct InteractiveInputTests {
    @Test func eachResultArrivesBeforeTheNextLineIsWritten() throws {
        let process = try SmrunProcess(["machines/self-driving-car.yaml", "--format", "json"], input: nil)
        let exchanges = [
            ("startEngine", "parked"),
            ("pickUpPassengers", "pickingUpPassengers"),
            ("passengersHaveEntered 2", "pickingUpPassengers"),
        ]
        for (input, state) in exchanges {
            try process.write(input + "\n")
            let line = try #require(try process.readLine(timeout: .seconds(5)), "no result for \(input)")
            #expect(line.contains(#""to":"\#(state)""#), "\(line)")
        }
        try process.write("park\n")
        let refused = try #require(try process.readLine(timeout: .seconds(5)))
        #expect(refused.contains(#""error":"no-transition""#), "\(refused)")
        try process.closeInput()
        #expect(try process.readLine(timeout: .seconds(5)) == nil)
        let run = try process.finish(output: nil, timeout: .seconds(10))
        #expect(run.exited(1))
        #expect(run.errorText == "")
    }
}
