import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The committed OpenAPI 3.1 document (Sources/StatecraftServer/openapi.json, served at
/// `/openapi.json`) describes the server as it is: every route the server has is in it, and
/// schemathesis, run against the live server with it, finds no answer that contradicts it.
@Suite(.servedEndToEnd) struct ServeOpenAPITests {
    static let documentPath = "Sources/StatecraftServer/openapi.json"

    static func document() throws -> [String: Any] {
        let data = try Data(contentsOf: Paths.packageRoot.appendingPathComponent(documentPath))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every `router.get/post/put/patch/delete/head("PATH")` in the server's sources, as
    /// `METHOD /path/{name}`.
    static func serverRoutes() throws -> Set<String> {
        let sources = Paths.packageRoot.appendingPathComponent("Sources/StatecraftServer")
        guard let walk = FileManager.default.enumerator(atPath: sources.path) else { return [] }
        var routes = Set<String>()
        while let file = walk.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /router\.(get|post|put|patch|delete|head)\(\s*"([^"]*)"/) {
                let path = match.2.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                    segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
                }.joined(separator: "/")
                routes.insert("\(match.1.uppercased()) \(path)")
            }
        }
        return routes
    }

    @Test func theDocumentHasEveryRouteOfTheServerAndNoOther() throws {
        let routes = try Self.serverRoutes()
        #expect(routes.count >= 13, "the route scan found \(routes.sorted())")
        #expect(routes.contains("POST /machines/{machine}/instances/{key}/inputs"), "\(routes.sorted())")
        let document = try Self.document()
        #expect((document["openapi"] as? String)?.hasPrefix("3.1.") == true)
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var documented = Set<String>()
        for (path, item) in paths {
            for method in ["get", "post", "put", "patch", "delete", "head"] where item[method] != nil {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        #expect(routes.subtracting(documented).isEmpty, "routes missing from \(Self.documentPath): \(routes.subtracting(documented).sorted())")
        #expect(documented.subtracting(routes).isEmpty, "documented routes the server does not have: \(documented.subtracting(routes).sorted())")

        // Each path parameter is declared, and the headers a client relies on are described.
        let text = String(decoding: try Data(contentsOf: Paths.packageRoot.appendingPathComponent(Self.documentPath)), as: UTF8.self)
        for (path, item) in paths {
            let declared = ((item["parameters"] as? [[String: Any]]) ?? []).compactMap { $0["$ref"] as? String }
            for name in path.matches(of: /\{([a-z]+)\}/).map({ String($0.1) }) {
                #expect(declared.contains("#/components/parameters/\(name)"), "\(path) does not declare {\(name)}")
            }
        }
        for header in ["ETag", "Location", "If-Match", "Idempotency-Key", "Last-Event-ID", "Retry-After", "WWW-Authenticate", "application/problem+json"] {
            #expect(text.contains("\"\(header)\""), "the document does not describe \(header)")
        }
    }

    /// schemathesis (PyPI) generates requests from the document, valid and invalid, and checks
    /// the live server's answers against it: no 5xx, only documented statuses, content types
    /// and headers, bodies that match their schemas, invalid requests refused. A missing
    /// schemathesis fails the test (`make test-deps` installs it): it never passes silently.
    @Test func schemathesisFindsNoAnswerThatContradictsTheDocument() throws {
        let python = try ExternalTool.python.executable()
        let probe = try ExternalTool.python.run(["-c", "import schemathesis"])
        try #require(
            probe.status == 0,
            "schemathesis is not installed for \(python): run `make test-deps` (or: python3 -m pip install schemathesis). \(probe.errorText.suffix(300))")

        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        // In a directory of its own: schemathesis and Hypothesis write their state where they run.
        let work = files.path("schemathesis")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let document = Paths.packageRoot.appendingPathComponent(Self.documentPath).path
        let arguments = [
            "-m", "schemathesis.cli", "run", document, "--url", "http://127.0.0.1:\(server.port)",
            "--checks", "all",
            // A valid request by the document may still be refused by the machine (an
            // undeclared context variable, an unknown input, a stale If-Match): 4xx by design.
            // An unknown method is 404, as every path the router does not have.
            "--exclude-checks", "positive_data_acceptance,unsupported_method",
            // The events feeds stream until the server stops: other tests read them.
            "--exclude-path-regex", "/events$",
            "--max-examples", "8", "--seed", "32", "--generation-database", "none", "--request-timeout", "20",
            // One worker: CPython 3.11 before 3.11.8 keeps the AST constructor's recursion depth
            // per interpreter, not per thread (CPython issue 106905), and Hypothesis parses its
            // filters' source in every worker; two workers failed now and then with
            // `SystemError: AST constructor recursion depth mismatch`.
            "--workers", "1", "--no-color",
        ]
        let child = try Subprocess(python, arguments, directory: work)
        child.closeInput()
        let output = Subprocess.drain(child.output)
        let errors = Subprocess.drain(child.errorOutput)
        let end = child.wait(timeout: .seconds(240))
        let text = String(decoding: output.wait(), as: UTF8.self) + String(decoding: errors.wait(), as: UTF8.self)
        let ended = try #require(end, "schemathesis did not finish within 240 s: \(text.suffix(3000))")
        #expect(!ended.signalled && ended.status == 0, "schemathesis found problems:\n\(text.suffix(6000))")
        #expect(text.contains("passed"), "\(text.suffix(2000))")
        #expect(try server.get("/healthz").status == 200)
        let stopped = try #require(server.stop(SIGTERM))
        #expect(!stopped.signalled && stopped.status == 0, "\(server.errorText)")
        #expect(!server.errorText.contains("request failed"), "the server logged failures: \(server.errorText.suffix(2000))")
    }
}
