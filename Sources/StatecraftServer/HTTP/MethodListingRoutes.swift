import HTTPTypes
import Hummingbird

/// Adds routes to `base` and lists the methods each path takes, so that
/// ``answerOtherMethods()`` can answer every other method on those paths with 405 and an
/// `Allow` header naming them: Hummingbird's router answers a known path under another method
/// with 404, as if the path did not exist.
final class MethodListingRoutes<Base: RouterMethods>: RouterMethods {
    typealias Context = Base.Context

    private let base: Base
    /// The paths in the order they were first added, each with its methods.
    private var paths: [(path: RouterPath, methods: [HTTPRequest.Method])] = []
    /// The methods that get a 405 on a path that does not take them.
    private static var answered: [HTTPRequest.Method] { [.get, .head, .post, .put, .patch, .delete] }

    init(_ base: Base) {
        self.base = base
    }

    @discardableResult func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        base.on(path, method: method, responder: responder)
        if let index = paths.firstIndex(where: { $0.path == path }) {
            paths[index].methods.append(method)
        } else {
            paths.append((path, [method]))
        }
        return self
    }

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        _ = base.add(middleware: middleware)
        return self
    }

    /// Answers the methods that each path added so far does not take with 405, `Allow` listing
    /// the ones it does.
    func answerOtherMethods() {
        for (path, methods) in paths {
            let allow = methods.map(\.rawValue).joined(separator: ", ")
            for method in Self.answered where !methods.contains(method) {
                base.on(path, method: method) { _, _ -> Response in
                    throw HTTPError(.methodNotAllowed, headers: [.allow: allow])
                }
            }
        }
    }
}
