import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile requests to `smrun serve` (issue 32): each gets its 4xx, an RFC 9457 problem whose
/// `detail` names what is wrong, or a closed connection; the server keeps serving; and nothing
/// is stored. Each test starts a server holding one instance, `tally/probe` at version 2, and
/// ends by checking that it still answers and that its store holds that instance alone,
/// unchanged.
@Suite(.servedEndToEnd) struct ServeHostileRequestTests {
    /// A server with `tally/probe` at version 2 (total 1).
    static func server(_ files: TemporaryFiles, arguments: [String] = []) throws -> ServerProcess {
        let server = try ServerProcess.start(files, arguments: arguments)
        try server.create("tally", key: "probe")
        try server.send("tally", "probe", "add", arg: "1")
        return server
    }

    /// The server still answers, and its store holds `tally/probe` as it was, and nothing else.
    static func expectNothingStored(_ server: ServerProcess, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let health = try server.get("/healthz")
        #expect(health.status == 200, "the server no longer answers /healthz: \(health.status)", sourceLocation: sourceLocation)
        for machine in ["self-driving-car", "media-player", "alarm"] {
            let keys = try server.instances(machine).map { $0["key"] as? String ?? "?" }
            #expect(keys.isEmpty, "\(machine) has instances \(keys)", sourceLocation: sourceLocation)
        }
        let tally = try server.instances("tally")
        #expect(tally.map { $0["key"] as? String } == ["probe"], "tally has \(tally.map { $0["key"] ?? "?" })", sourceLocation: sourceLocation)
        let probe = try server.instance("tally", "probe")
        #expect(JSONValue.int(probe["version"]) == 2, "probe moved: \(probe)", sourceLocation: sourceLocation)
        #expect(JSONValue.int((probe["context"] as? [String: Any])?["total"]) == 1, sourceLocation: sourceLocation)
        #expect(try server.history("tally", "probe").count == 2, sourceLocation: sourceLocation)
    }

    /// `request` is answered with a problem of `status` naming `words`, on a create and on a send.
    static func expectProblem(
        _ server: ServerProcess, _ method: String, _ path: String, body: [UInt8]? = nil, headers: [(String, String)] = [], status: Int,
        naming words: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let answer = try server.request(method, path, body: body, headers: headers)
        #expect(
            answer.isProblem(status, naming: words),
            "\(method) \(path.prefix(80)) with \(String(decoding: (body ?? []).prefix(80), as: UTF8.self)): expected \(status) naming \(words), got \(answer.status) \(answer.text.prefix(300))",
            sourceLocation: sourceLocation)
    }

    // MARK: - Bodies

    @Test func malformedJSONIsA400NamingTheProblem() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        let bodies: [(body: [UInt8], words: [String])] = [
            (Array(#"{"input":"add","arg":"#.utf8), ["not valid JSON"]),
            (Array("not json".utf8), ["not valid JSON"]),
            (Array(#"{"input":"add","arg":1}}"#.utf8), ["not valid JSON", "after"]),
            (Array(#"{"input":"add",}"#.utf8), ["not valid JSON"]),
            (Array(#"{"input":"add","arg":1,"arg":2}"#.utf8), ["duplicate member", "arg"]),
            (Array(#"{"input":"a"#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8), ["not valid JSON", "UTF-8"]),
            (Array(#"{"input":"a\u0000dd"}"#.utf8), ["unknown input"]),
            (Array("[1,2]".utf8), ["JSON object", "array"]),
            (Array("\"add\"".utf8), ["JSON object", "string"]),
            ([], ["not valid JSON"]),
        ]
        for (body, words) in bodies {
            try Self.expectProblem(server, "POST", "/machines/tally/instances/probe/inputs", body: body, status: 400, naming: words)
            try Self.expectProblem(
                server, "POST", "/machines/tally/instances/probe/inputs", body: body, headers: [("Idempotency-Key", "x")], status: 400,
                naming: words)
        }
        for body in [Array(#"{"key":"new""#.utf8), Array("{'key':'new'}".utf8), Array("[]".utf8)] {
            try Self.expectProblem(server, "POST", "/machines/tally/instances", body: body, status: 400, naming: ["JSON"])
        }
        try Self.expectNothingStored(server)
    }

    @Test func jsonNestedDeeperThan32IsA400() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        // 33 levels in the argument (the body is the first), and a hundred thousand in a
        // context: refused without reading them all into a stack.
        let arg33 = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        try Self.expectProblem(
            server, "POST", "/machines/tally/instances/probe/inputs", body: Array(#"{"input":"add","arg":\#(arg33)}"#.utf8), status: 400,
            naming: ["nested deeper than 32"])
        let deep = #"{"key":"deep","context":{"total":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}}"
        try Self.expectProblem(server, "POST", "/machines/tally/instances", body: Array(deep.utf8), status: 400, naming: ["nested deeper than 32"])
        let objects = String(repeating: #"{"a":"#, count: 40) + "1" + String(repeating: "}", count: 40)
        try Self.expectProblem(server, "POST", "/machines/tally/instances", body: Array(objects.utf8), status: 400, naming: ["nested deeper than 32"])
        // 32 levels is not too deep: the argument is then refused for its type, by name.
        let arg31 = String(repeating: "[", count: 31) + String(repeating: "]", count: 31)
        try Self.expectProblem(
            server, "POST", "/machines/tally/instances/probe/inputs", body: Array(#"{"input":"add","arg":\#(arg31)}"#.utf8), status: 400,
            naming: ["'add'", "int"])
        try Self.expectNothingStored(server)
    }

    @Test func aBodyOverMaxBodyBytesIs413() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files, arguments: ["--max-body-bytes", "64"])
        // A valid body, one byte too many: 413, naming the option.
        let base = #"{"input":"add","arg":1,"create":true}"#
        let body = base + String(repeating: " ", count: 65 - base.utf8.count)
        try Self.expectProblem(server, "POST", "/machines/tally/instances/fresh/inputs", body: Array(body.utf8), status: 413, naming: ["--max-body-bytes"])
        try Self.expectProblem(
            server, "POST", "/machines/tally/instances", body: Array((#"{"key":"fresh"}"# + String(repeating: " ", count: 60)).utf8), status: 413,
            naming: ["--max-body-bytes"])
        // Exactly the limit is accepted.
        let small = #"{"input":"add","arg":5}"#
        let fits = small + String(repeating: " ", count: 64 - small.utf8.count)
        #expect(try server.request("POST", "/machines/tally/instances/other/inputs", body: Array(fits.utf8)).status == 404)
        try Self.expectNothingStored(server)
    }

    /// 100 MB, announced by `Content-Length` or sent in chunks: 413 (or the connection closes)
    /// as the body arrives, and the server goes on.
    @Test func aHundredMegabyteBodyIs413OrAClosedConnection() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        for chunked in [false, true] {
            let connection = try HTTPConnection(port: server.port)
            let size = 100 << 20
            let head =
                "POST /machines/tally/instances/probe/inputs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + (chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "Content-Length: \(size)\r\n\r\n")
            try connection.send(Array(head.utf8))
            let sender = Thread {
                let piece = [UInt8](repeating: UInt8(ascii: " "), count: 1 << 16)
                let framed = chunked ? Array("10000\r\n".utf8) + piece + Array("\r\n".utf8) : piece
                for _ in 0..<(size >> 16) {
                    guard (try? connection.send(framed)) != nil else { return }
                }
                if chunked { _ = try? connection.send(Array("0\r\n\r\n".utf8)) }
            }
            sender.start()
            do {
                let answer = try connection.readAnswer(timeout: .seconds(60))
                #expect(answer.isProblem(413, naming: ["--max-body-bytes 1048576"]), "\(answer.status) \(answer.text)")
            } catch HTTPFailure.closed {
                // A closed connection is an answer too.
            }
            shutdown(connection.fd, Int32(SHUT_RDWR))
        }
        try Self.expectNothingStored(server)
    }

    // MARK: - Names

    @Test func anUnknownMachineIs404OnEveryRoute() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        let routes: [(String, String, String?)] = [
            ("POST", "/machines/jukebox/instances", #"{"key":"a"}"#),
            ("GET", "/machines/jukebox/instances", nil),
            ("GET", "/machines/jukebox/instances/probe", nil),
            ("DELETE", "/machines/jukebox/instances/probe", nil),
            ("POST", "/machines/jukebox/instances/probe/inputs", #"{"input":"add","arg":1,"create":true}"#),
            ("GET", "/machines/jukebox/instances/probe/history", nil),
            ("GET", "/machines/jukebox/instances/probe/events", nil),
            ("GET", "/machines/jukebox/events", nil),
            // A machine name with SQL in it is just an unknown name.
            ("POST", "/machines/tally'%20OR%20'1'='1/instances/probe/inputs", #"{"input":"add","arg":1}"#),
        ]
        for (method, path, body) in routes {
            try Self.expectProblem(server, method, path, body: body.map { Array($0.utf8) }, status: 404, naming: ["no machine"])
        }
        try Self.expectNothingStored(server)
    }

    /// A path the server has, under a method it does not take there, is 405 with `Allow`
    /// naming the ones it does (a 404 would say the instance or the route is not there); a path
    /// it does not have stays 404.
    @Test func aMethodAPathDoesNotTakeIs405NamingTheOnesItDoes() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        try server.create("tally", key: "k")
        let routes: [(method: String, path: String, allow: String)] = [
            ("POST", "/machines/tally/instances/k", "GET, DELETE"),
            ("PUT", "/machines/tally/instances/k", "GET, DELETE"),
            ("PATCH", "/machines/tally/instances/k/inputs", "POST, GET"),
            ("DELETE", "/machines/tally/instances", "POST, GET"),
            ("PUT", "/machines", "GET"),
            ("POST", "/healthz", "GET"),
            ("DELETE", "/machines/tally/events", "GET"),
        ]
        for (method, path, allow) in routes {
            let answer = try server.request(method, path, body: Array(#"{"input":"add","arg":1}"#.utf8))
            #expect(answer.isProblem(405, naming: [method, path]), "\(method) \(path): \(answer.status) \(answer.text)")
            #expect(answer.header("Allow") == allow, "\(method) \(path)")
        }
        try Self.expectProblem(server, "PUT", "/nowhere", status: 404, naming: ["no route", "/nowhere"])
        let instance = try server.instance("tally", "k")
        #expect(JSONValue.int(instance["version"]) == 1, "\(instance)")
    }

    @Test func anUnknownOrInternalInputOrAWrongArgumentIsA400NamingIt() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        try server.create("alarm", key: "a")
        let cases: [(machine: String, key: String, body: String, words: [String])] = [
            ("tally", "probe", #"{"input":"subtract","arg":1}"#, ["'subtract'"]),
            ("tally", "probe", #"{"input":""}"#, ["input"]),
            ("tally", "probe", #"{"arg":1}"#, ["'input'"]),
            ("tally", "probe", #"{"input":7}"#, ["'input'"]),
            ("tally", "probe", #"{"input":"add","arg":"1"}"#, ["'add'", "int"]),
            ("tally", "probe", #"{"input":"add","arg":1.5}"#, ["'add'", "int"]),
            ("tally", "probe", #"{"input":"add","arg":99999999999999999999999}"#, ["'add'", "int"]),
            ("tally", "probe", #"{"input":"add"}"#, ["'add'", "none was given"]),
            ("tally", "probe", #"{"input":"add","arg":null}"#, ["'add'"]),
            ("tally", "probe", #"{"input":"add","arg":[1]}"#, ["'add'", "int"]),
            ("tally", "probe", #"{"input":"close","arg":1}"#, ["'close'", "no argument"]),
            ("tally", "probe", #"{"input":"add","arg":1,"priority":"high"}"#, ["'priority'"]),
            ("tally", "new", #"{"input":"subtract","create":true}"#, ["'subtract'"]),
            ("tally", "new", #"{"input":"add","arg":"x","create":true}"#, ["'add'", "int"]),
            // An internal input (only the machine's effects send it) is no input of the API.
            ("alarm", "a", #"{"input":"rang"}"#, ["'rang'", "internal"]),
            // A string argument is a JSON string: no number, boolean, null or object is taken for one.
            ("self-driving-car", "car", #"{"input":"driveToLocation","arg":42,"create":true}"#, ["'driveToLocation'", "string", "42"]),
            ("self-driving-car", "car", #"{"input":"driveToLocation","arg":true,"create":true}"#, ["'driveToLocation'", "string"]),
            ("self-driving-car", "car", #"{"input":"driveToLocation","arg":null,"create":true}"#, ["'driveToLocation'", "string"]),
            ("self-driving-car", "car", #"{"input":"driveToLocation","arg":{"to":"x"},"create":true}"#, ["'driveToLocation'", "string"]),
            ("alarm", "a", #"{"input":"setLabel","arg":["x"]}"#, ["'setLabel'", "string"]),
        ]
        for (machine, key, body, words) in cases {
            try Self.expectProblem(server, "POST", "/machines/\(machine)/instances/\(key)/inputs", body: Array(body.utf8), status: 400, naming: words)
        }
        #expect(JSONValue.int(try server.instance("alarm", "a")["version"]) == 1)
        #expect(try server.delete("/machines/alarm/instances/a").status == 204)
        try Self.expectNothingStored(server)
    }

    /// Keys must match `^[A-Za-z0-9_~:@-][A-Za-z0-9._~:@-]{0,199}$`: anything else is a 400
    /// naming the key, in a body or in a path, and never reaches a file name or an SQL text.
    @Test func aKeyWithPathQuotesNULOrSQLOrTenThousandCharactersIsA400() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        let hostile = [
            "../etc/passwd", "..", ".hidden", "a/b", "a\\b", "a\"b", "a'b", "a\u{0}b", "a b", "a\nb", "",
            String(repeating: "k", count: 10_000), String(repeating: "k", count: 201),
            "x'; DROP TABLE instances; --", "' OR '1'='1", "probe\" OR key LIKE \"%", "a%2Fb", "ключ", "a\u{7F}",
        ]
        for key in hostile {
            var escaped: [UInt8] = []
            for scalar in key.unicodeScalars {
                switch scalar {
                case "\"": escaped += Array(#"\""#.utf8)
                case "\\": escaped += Array(#"\\"#.utf8)
                case _ where scalar.value < 0x20: escaped += Array(String(format: "\\u%04x", scalar.value).utf8)
                default: escaped += Array(String(scalar).utf8)
                }
            }
            let body = Array(#"{"key":""#.utf8) + escaped + Array(#""}"#.utf8)
            let answer = try server.request("POST", "/machines/tally/instances", body: body)
            #expect(answer.isProblem(400, naming: ["key"]), "key \(key.debugDescription.prefix(60)): \(answer.status) \(answer.text.prefix(200))")
            #expect(answer.text.count < 1_000, "the problem quotes the key shortened")
        }
        // In the path, percent-encoded or raw: 400 (or no route at all), never a file or a row.
        let paths = [
            "..%2F..%2Fetc%2Fpasswd", "%2E%2E", "a%22b", "a'b", "a%00b", "a%20b", String(repeating: "k", count: 10_000),
            "x';DROP%20TABLE%20instances;--", ".probe",
        ]
        for key in paths {
            for (method, suffix, body) in [
                ("POST", "/inputs", #"{"input":"add","arg":1,"create":true}"#), ("GET", "", nil), ("DELETE", "", nil), ("GET", "/history", nil),
                ("GET", "/events", nil),
            ] {
                let answer = try server.request(method, "/machines/tally/instances/\(key)\(suffix)", body: body.map { Array($0.utf8) })
                #expect(
                    answer.isProblem(400, naming: ["key"]) || answer.isProblem(404), "\(method) key \(key.prefix(40)): \(answer.status) \(answer.text.prefix(200))")
            }
        }
        let raw = try HTTPConnection(port: server.port)
        try raw.send(Array("GET /machines/tally/instances/../../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let traversal = try raw.readAnswer(timeout: .seconds(30))
        #expect(traversal.status == 404 || traversal.status == 400, "\(traversal.status) \(traversal.text)")
        #expect(!traversal.text.contains("root:"))
        try Self.expectNothingStored(server)
    }

    /// Every value reaches SQLite as a bound parameter: SQL in a state filter, a cursor, an
    /// idempotency key or a string argument is plain text.
    @Test func sqlInQueryParametersHeadersAndArgumentsIsPlainText() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        let sql = "x' OR '1'='1'; DROP TABLE instances; --"
        let encoded = sql.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        try Self.expectProblem(server, "GET", "/machines/tally/instances?state=\(encoded)", status: 400, naming: ["state"])
        try Self.expectProblem(server, "GET", "/machines/tally/instances?status=\(encoded)", status: 400, naming: ["status"])
        let cursor = Data(sql.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        try Self.expectProblem(server, "GET", "/machines/tally/instances?cursor=\(cursor)", status: 400, naming: ["cursor"])
        try Self.expectProblem(server, "GET", "/machines/tally/instances/probe/history?after=\(encoded)", status: 400, naming: ["after"])
        try Self.expectNothingStored(server)

        // An Idempotency-Key has 1 to 255 characters.
        for length in [256, 10_000] {
            try Self.expectProblem(
                server, "POST", "/machines/tally/instances/probe/inputs", body: Array(#"{"input":"add","arg":1}"#.utf8),
                headers: [("Idempotency-Key", String(repeating: "k", count: length))], status: 400, naming: ["Idempotency-Key"])
        }
        try Self.expectNothingStored(server)
        // As an Idempotency-Key, SQL is a key like any other: the first answer again on a repeat.
        let headers = [("Idempotency-Key", sql)]
        let first = try server.post("/machines/self-driving-car/instances/car/inputs", #"{"input":"startEngine","create":true}"#, headers: headers)
        #expect(first.status == 200, "\(first.text)")
        let again = try server.post("/machines/self-driving-car/instances/car/inputs", #"{"input":"startEngine","create":true}"#, headers: headers)
        #expect(again.status == 200 && again.body == first.body)
        try server.send("self-driving-car", "car", "pickUpPassengers")
        // As a string argument, it is stored and shown as given.
        let sent = try server.send("self-driving-car", "car", "driveToLocation", arg: #""\#(sql)""#)
        #expect(((sent["instance"] as? [String: Any])?["context"] as? [String: Any])?["location"] as? String == sql)
        #expect(try server.history("self-driving-car", "car").last?["arg"] as? String == sql)
        #expect(try server.instances("self-driving-car").count == 1)
        #expect(try server.instances("tally").count == 1)
    }

    // MARK: - Queries and headers

    @Test func aLimitOutside1To1000OrABadCursorIsA400() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        for limit in ["0", "1001", "-5", "1e3", "", "99999999999999999999"] {
            try Self.expectProblem(server, "GET", "/machines/tally/instances?limit=\(limit)", status: 400, naming: ["'limit'"])
            try Self.expectProblem(server, "GET", "/machines/tally/instances/probe/history?limit=\(limit)", status: 400, naming: ["'limit'"])
        }
        for id in ["-1", "abc", "1.5"] {
            let feed = try server.events("/machines/tally/instances/probe/events", lastEventID: id)
            #expect(feed.head.isProblem(400, naming: ["Last-Event-ID"]), "Last-Event-ID \(id): \(feed.head.status) \(feed.head.text)")
        }
        try Self.expectNothingStored(server)
    }

    /// Requests that are not HTTP, or whose framing lies: a 4xx and a closed connection.
    @Test func garbageAndMalformedFramingCloseTheConnection() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        let requests = [
            "GARBAGE\r\n\r\n",
            "POST /machines/tally/instances/probe/inputs HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}",
            "POST /machines/tally/instances/probe/inputs HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 200_000))\r\n\r\n",
            "GET /machines/tally/instances/a\u{0}b HTTP/1.1\r\nHost: x\r\n\r\n",
        ]
        for request in requests {
            let connection = try HTTPConnection(port: server.port)
            try? connection.send(Array(request.utf8))
            do {
                let answer = try connection.readAnswer(timeout: .seconds(30))
                #expect((400..<500).contains(answer.status), "\(request.prefix(60).debugDescription): \(answer.status)")
            } catch HTTPFailure.closed {
            }
            #expect(connection.closes(within: .seconds(15)), "\(request.prefix(60).debugDescription): the connection stays open")
        }
        try Self.expectNothingStored(server)
    }

    // MARK: - Connections

    /// A request must arrive whole within 10 s: a client that drips its request a byte at a
    /// time has its connection closed, unanswered, while other clients are served.
    @Test(.timeBound) func aSlowDripConnectionIsClosedWithinTheRequestDeadline() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        let request = Array(HTTPConnection.request("POST", "/machines/tally/instances/probe/inputs", body: Array(#"{"input":"add","arg":1000}"#.utf8)))
        let connection = try HTTPConnection(port: server.port)
        let started = ContinuousClock.now
        var sent = 0
        var closedAt: Duration?
        while ContinuousClock.now - started < .seconds(15) {
            if (try? connection.send([request[sent % request.count]])) == nil {
                closedAt = ContinuousClock.now - started
                break
            }
            sent += 1
            if sent == 3 { #expect(try server.get("/healthz").status == 200, "others are served meanwhile") }
            if connection.closes(within: .milliseconds(400)) {
                closedAt = ContinuousClock.now - started
                break
            }
        }
        let closed = try #require(closedAt, "the connection is still open after 15 s (\(sent) bytes sent)")
        #expect(closed >= .seconds(8), "closed after \(closed): earlier than the 10 s deadline")
        #expect(sent < request.count, "the request arrived whole: the drip was too fast")
        try Self.expectNothingStored(server)
    }

    /// The deadline is each request's own: on a kept-alive connection whose earlier requests
    /// arrived whole, one that drips is closed 10 s after its own first byte, not after the
    /// connection's first request's.
    @Test(.timeBound) func theDeadlineCountsFromEachRequestsFirstByte() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        let connection = try HTTPConnection(port: server.port)
        let started = ContinuousClock.now
        for _ in 0..<6 {
            try connection.send(HTTPConnection.request("GET", "/machines/tally/instances/probe"))
            #expect(try connection.readAnswer(timeout: .seconds(10)).status == 200)
            Thread.sleep(forTimeInterval: 1)
        }
        let request = Array(HTTPConnection.request("POST", "/machines/tally/instances/probe/inputs", body: Array(#"{"input":"add","arg":1000}"#.utf8)))
        let dripStarted = ContinuousClock.now
        var sent = 0
        var closedAt: Duration?
        while ContinuousClock.now - dripStarted < .seconds(15) {
            if (try? connection.send([request[sent % request.count]])) == nil || connection.closes(within: .milliseconds(400)) {
                closedAt = ContinuousClock.now - dripStarted
                break
            }
            sent += 1
        }
        let closed = try #require(closedAt, "the connection is still open 15 s into the drip (\(sent) bytes sent)")
        #expect(dripStarted - started >= .seconds(6), "the drip began \(dripStarted - started) after the first request")
        #expect(closed >= .seconds(8), "closed \(closed) into the drip: the first request's deadline, not its own")
        #expect(sent < request.count, "the request arrived whole: the drip was too fast")
        try Self.expectNothingStored(server)
    }

    /// 1,000 connections opened at once and left idle: the server still answers.
    @Test func aThousandIdleConnectionsLeaveTheServerServing() throws {
        let files = try TemporaryFiles()
        let server = try Self.server(files)
        // This process needs the descriptors too (a soft limit of 1,024 is common).
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur < 4096 {
            limit.rlim_cur = min(limit.rlim_max, 4096)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        var idle: [HTTPConnection] = []
        for _ in 0..<1_000 { idle.append(try HTTPConnection(port: server.port)) }
        let started = ContinuousClock.now
        let health = try server.get("/healthz")
        #expect(health.status == 200)
        #expect(ContinuousClock.now - started < .seconds(10), "answered /healthz after \(ContinuousClock.now - started)")
        // An idle connection is still usable, and a new one too.
        let some = idle[500]
        try some.send(HTTPConnection.request("GET", "/machines/tally/instances/probe"))
        #expect(try some.readAnswer(timeout: .seconds(30)).status == 200)
        try Self.expectNothingStored(server)
        idle.removeAll()
        #expect(try server.get("/healthz").status == 200)
    }
}
