import Foundation
import Testing

/// The inspector's files as `smrun serve` serves them (docs/inspector.md): the page at `/` and
/// its modules under `/inspector/`, each with its content type, an `ETag` a browser revalidates
/// (`Cache-Control: no-cache`), and a Content-Security-Policy that keeps the page to its own
/// server; open without a token, and only they. What the page does is tested in a browser
/// (Tests/Inspector/test_inspector.py).
@Suite(.servedEndToEnd) struct ServeInspectorFilesTests {
    /// Every file the page loads, found from the page itself: the `src` and `href` of
    /// index.html and the `from "./x.js"` of each module, so that a file the page needs but the
    /// binary lacks fails here.
    static func filesThePageLoads(_ server: ServerProcess) throws -> [String: String] {
        var found: [String: String] = [:]
        let page = try server.get("/")
        var modules: [String] = []
        for match in page.text.matches(of: /(?:src|href)="(\/inspector\/[^"]+)"/) {
            let path = String(match.1)
            found[path] = path.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
            if path.hasSuffix(".js") { modules.append(path) }
        }
        while let module = modules.popLast() {
            for match in try server.get(module).text.matches(of: /from "\.\/([a-z]+\.js)"/) {
                let path = "/inspector/" + match.1
                if found.updateValue("text/javascript; charset=utf-8", forKey: path) == nil { modules.append(path) }
            }
        }
        return found
    }

    @Test func thePageAndItsModulesAreServedWithTypesValidatorsAndAPolicy() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        let page = try server.get("/")
        #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains(#"<script type="module" src="/inspector/app.js">"#) && page.text.contains("/openapi.json"))
        let policy = try #require(page.header("Content-Security-Policy"))
        #expect(policy.contains("default-src 'self'") && policy.contains("script-src 'self'") && policy.contains("object-src 'none'"), "\(policy)")
        #expect(!policy.contains("unsafe"), "\(policy)")

        let loaded = try Self.filesThePageLoads(server)
        #expect(loaded.count >= 10, "\(loaded.keys.sorted())")
        let parameters = try #require((try ServeOpenAPITests.document()["components"] as? [String: Any])?["parameters"] as? [String: Any])
        let documented = ((parameters["file"] as? [String: Any])?["schema"] as? [String: Any])?["enum"] as? [String]
        #expect(Set(documented ?? []) == Set(loaded.keys.map { String($0.dropFirst("/inspector/".count)) }), "the OpenAPI document lists the files the page loads")
        for (path, type) in loaded.sorted(by: { $0.key < $1.key }) + [("/", "text/html; charset=utf-8")] {
            let answer = try server.get(path)
            #expect(answer.status == 200 && answer.header("Content-Type") == type, "\(path): \(answer.status) \(answer.header("Content-Type") ?? "")")
            #expect(answer.header("Cache-Control") == "no-cache" && answer.header("X-Content-Type-Options") == "nosniff", "\(path)")
            let tag = try #require(answer.header("ETag"), "\(path) has no ETag")
            #expect(tag.wholeMatch(of: /"[0-9a-f]{64}"/) != nil, "\(path): \(tag)")
            let again = try server.get(path, headers: [("If-None-Match", tag)])
            #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == tag, "\(path): \(again.status)")
            #expect(try server.get(path, headers: [("If-None-Match", #""0""#)]).status == 200, "\(path) with another tag")
        }
    }

    @Test func anyOtherPathUnderThePrefixIsANotFoundProblem() throws {
        let files = try TemporaryFiles()
        let server = try ServerProcess.start(files)
        for path in ["/inspector/nothing.js", "/inspector/APP.JS", "/inspector/app.js.map", "/inspector/..%2Fopenapi.json", "/inspector/%2e%2e"] {
            let answer = try server.get(path)
            #expect(answer.isProblem(404, naming: [path]), "\(path): \(answer.status) \(answer.text)")
        }
    }

    @Test func withATokenThePageAndItsFilesNeedNoneAndNothingElseIsOpened() throws {
        let files = try TemporaryFiles()
        let token = try files.file("token", "page-token\n")
        let server = try ServerProcess.start(files, arguments: ["--token-file", token])
        for path in try Self.filesThePageLoads(server).keys.sorted() + ["/"] {
            #expect(try server.get(path).status == 200, "\(path) without a token")
        }
        for path in ["/inspector/nothing.js", "/inspector/", "/inspector", "/inspector/../machines", "/inspector/app.js/../../machines", "/machines"] {
            let answer = try server.get(path)
            #expect(answer.isProblem(401, naming: ["Bearer"]), "\(path): \(answer.status) \(answer.text)")
        }
        #expect(try server.get("/machines", headers: [("Authorization", "Bearer page-token")]).status == 200)
    }
}
