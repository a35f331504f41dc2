import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Statecraft

/// The inspector (docs/inspector.md): a page of plain HTML, CSS and JavaScript modules, embedded
/// in the binary, served at `/` and under `/inspector/` without a token (the page asks for one
/// and sends it with its API requests). Each file has an `ETag` (its SHA-256) and
/// `Cache-Control: no-cache`, so a browser asks again each time and gets a 304 while the binary
/// is the same; the page's Content-Security-Policy lets it load its own files and talk to its
/// own server, nothing else.
enum InspectorFiles {
    /// A file as served.
    struct File: Sendable {
        let body: [UInt8]
        let contentType: String
        /// `"HEX"`: the body's SHA-256.
        let eTag: String

        init(_ body: [UInt8], _ contentType: String) {
            self.body = body
            self.contentType = contentType
            eTag = "\"" + SHA256.hexDigest(body) + "\""
        }
    }

    /// The page.
    static let pagePath = "/"
    /// The prefix of the page's other files: `/inspector/app.js`.
    static let prefix = "/inspector/"

    /// Every file, by the path it is served at.
    static let files: [String: File] = {
        let javaScript = "text/javascript; charset=utf-8"
        return [
            pagePath: File(PackageResources.index_html, "text/html; charset=utf-8"),
            prefix + "inspector.css": File(PackageResources.inspector_css, "text/css; charset=utf-8"),
            prefix + "app.js": File(PackageResources.app_js, javaScript),
            prefix + "api.js": File(PackageResources.api_js, javaScript),
            prefix + "events.js": File(PackageResources.events_js, javaScript),
            prefix + "dom.js": File(PackageResources.dom_js, javaScript),
            prefix + "diagram.js": File(PackageResources.diagram_js, javaScript),
            prefix + "arguments.js": File(PackageResources.arguments_js, javaScript),
            prefix + "timeline.js": File(PackageResources.timeline_js, javaScript),
            prefix + "machines.js": File(PackageResources.machines_js, javaScript),
            prefix + "instance.js": File(PackageResources.instance_js, javaScript),
        ]
    }()

    /// Scripts, styles, images and requests from the server itself only; no plugins, frames,
    /// `<base>` or inline script.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// The file at `path` (`/` or `/inspector/NAME`): 200 with it, or 304 when `If-None-Match`
    /// names its `ETag`; a 404 problem for any other path under the prefix.
    static func response(path: String, request: Request) throws -> Response {
        guard let file = files[path] else { throw HTTPError(.notFound) }
        var headers = HTTPFields()
        headers[.eTag] = file.eTag
        headers[.cacheControl] = "no-cache"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "no-referrer"
        if let tags = request.headers[.ifNoneMatch], tags.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }).contains(where: { $0 == file.eTag || $0 == "*" }) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.body)))
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
}
