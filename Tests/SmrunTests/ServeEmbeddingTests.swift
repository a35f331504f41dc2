import Foundation
import Testing

/// An application of one's own that embeds the store and the instances API
/// (docs/examples/EmbeddedOrderServer, docs/serving.md "Embedding the store and the routes"):
/// the API's routes beside the application's own, asking for the configured token (they did
/// not), and the whole stopping with status 0 on SIGTERM, its answers in the store.
@Suite(.servedEndToEnd) struct ServeEmbeddingTests {
    @Test func theEmbeddedRoutesServeBesideTheApplicationsOwnAndAskForTheToken() throws {
        let files = try TemporaryFiles()
        let store = files.path("orders.sqlite")
        let process = Process()
        process.executableURL = try Paths.smrun().deletingLastPathComponent().appendingPathComponent("EmbeddedOrderServer")
        process.arguments = ["0", store, "s3cret"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var said = ""
        while !said.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            said += String(decoding: data, as: UTF8.self)
        }
        let port = try #require(said.hasPrefix("listening on ") ? Int(said.dropFirst(13).prefix { $0.isNumber }) : nil, "\(said)")

        func request(_ method: String, _ path: String, body: String? = nil, token: String? = nil) throws -> HTTPAnswer {
            let connection = try HTTPConnection(port: port)
            let headers = token.map { [("Authorization", "Bearer \($0)")] } ?? []
            try connection.send(HTTPConnection.request(method, path, body: body.map { Array($0.utf8) }, headers: headers))
            return try connection.readAnswer(timeout: .seconds(30), method: method)
        }
        let create = #"{"key":"A-1"}"#
        for token in [nil, "wrong"] {
            let refused = try request("POST", "/machines/order/instances", body: create, token: token)
            #expect(refused.status == 401 && refused.header("WWW-Authenticate") == "Bearer", "\(refused.status) \(refused.text)")
            #expect(try request("GET", "/machines/order/instances/A-1", token: token).status == 401)
        }
        #expect(try request("POST", "/machines/order/instances", body: create, token: "s3cret").status == 201)
        let sent = try request("POST", "/machines/order/instances/A-1/inputs", body: #"{"input":"place","arg":100}"#, token: "s3cret")
        #expect(sent.status == 200, "\(sent.text)")
        let wrongMethod = try request("PUT", "/machines/order/instances/A-1", token: "s3cret")
        #expect(wrongMethod.status == 405 && wrongMethod.header("Allow") == "GET, DELETE", "\(wrongMethod.status) \(wrongMethod.text)")
        let own = try request("GET", "/hello")
        #expect(own.status == 200 && own.text == "an application's own route\n", "\(own.status) \(own.text)")

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let listed = try Smrun.run(["instances", "show", "--store", store, "order", "A-1", "--format", "json"])
        #expect(listed.exited(0) && listed.text.contains(#""version":2"#), "\(listed.text) \(listed.errorText)")
    }
}
