import Foundation
import Testing

/// Every console block of docs/serving.md made of `$ curl` requests shows what `smrun serve`
/// really answers: the blocks run in order against one server of docs/examples/order.yaml on a
/// fresh store (those of the section on the virtual clock against a server of their own, on
/// `--clock virtual`), `localhost:8080` standing for the port it picked, and each answer must
/// be the line after its command, times aside (every RFC 3339 time reads `TIME`).
@Suite(.servedEndToEnd) struct ServingExamplesTests {
    static let document = "docs/serving.md"

    struct Request {
        var line: Int
        var command: String
        var expected: [String] = []
    }

    /// The section whose examples run on a virtual-clock server.
    static let virtualClockSection = "## Simulating with a virtual clock"

    /// The requests of the page's `$ curl` blocks: those of the virtual-clock section, or the
    /// others.
    static func requests(onTheVirtualClock: Bool) -> [Request] {
        let lines = ReadmeExamplesTests.lines(of: document)
        let sectionStart = lines.first { $0.text == virtualClockSection }?.number ?? Int.max
        let sectionEnd = lines.first { $0.number > sectionStart && $0.text.hasPrefix("## ") }?.number ?? Int.max
        var requests: [Request] = []
        for block in ReadmeExamplesTests.consoleBlocks(of: document) where block.first?.text.hasPrefix("$ curl ") == true {
            guard let first = block.first?.number, (sectionStart..<sectionEnd).contains(first) == onTheVirtualClock else { continue }
            for (number, line) in block {
                if line.hasPrefix("$ curl ") {
                    requests.append(Request(line: number, command: String(line.dropFirst(2))))
                } else {
                    requests[requests.count - 1].expected.append(line)
                }
            }
        }
        return requests
    }

    static func maskingTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"#, with: "TIME", options: .regularExpression)
    }

    @Test(arguments: [false, true]) func theServingPageShowsRealAnswers(onTheVirtualClock: Bool) throws {
        let requests = Self.requests(onTheVirtualClock: onTheVirtualClock)
        #expect(requests.count >= 4, "docs/serving.md shows \(requests.count) curl requests")
        let files = try TemporaryFiles()
        let server = try ServerProcess(
            ["docs/examples/order.yaml"], store: files.path("store.sqlite"), arguments: ["--clock", onTheVirtualClock ? "virtual" : "real"])
        defer { _ = server.stop() }
        for request in requests {
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", request.command.replacingOccurrences(of: "localhost:8080", with: "127.0.0.1:\(server.port)")]
            shell.currentDirectoryURL = Paths.packageRoot
            let output = Pipe()
            shell.standardOutput = output
            try shell.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            shell.waitUntilExit()
            let answer = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(
                answer.map(Self.maskingTimes) == request.expected.map(Self.maskingTimes), "\(Self.document):\(request.line): \(request.command)")
        }
    }

    /// docs/examples/payment_worker.py carries out the `chargeCard` hook: it follows the order
    /// machine's feed and answers each charge with `paymentSucceeded`, once per order.
    @Test func theWorkerPaysEveryPlacedOrder() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess(["docs/examples/order.yaml"], store: files.path("store.sqlite"))
        defer { _ = server.stop() }
        // The worker resumes after the event id it last saw: from the machine's first entry.
        try "0".write(toFile: files.path("worker.cursor"), atomically: true, encoding: .utf8)
        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        worker.arguments = [
            "python3", "docs/examples/payment_worker.py", "--server", "http://127.0.0.1:\(server.port)", "--count", "2",
            "--cursor", files.path("worker.cursor"),
        ]
        worker.currentDirectoryURL = Paths.packageRoot
        let printed = Pipe()
        worker.standardOutput = printed
        try worker.run()
        _ = try server.send("order", "A-1", "place", arg: "120", create: true)
        _ = try server.send("order", "A-2", "place", arg: "80", create: true)
        let deadline = Date().addingTimeInterval(30)
        while worker.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if worker.isRunning { worker.terminate() }
        #expect(worker.terminationStatus == 0)
        let lines = String(decoding: printed.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        #expect(Set(lines) == ["charged order A-1: 120", "charged order A-2: 80"])
        for key in ["A-1", "A-2"] {
            #expect(try server.instance("order", key)["state"] as? String == "paid")
            let inputs = try server.history("order", key).compactMap { $0["input"] as? String }
            #expect(inputs == ["place", "paymentSucceeded"], "\(key)")
        }
    }
}
