import Hummingbird

/// `smrun serve`'s responder: inputs, `POST /machines/{m}/instances/{key}/inputs`, most of the
/// requests a server gets, go straight to their route, matched on the path's bytes; every other
/// request goes through the router. Hummingbird's router splits a path into its components
/// character by character, some 15,000 instructions for this one (docs/performance.md, round
/// 37). A path that is not exactly six components of that form (a trailing `/`, say) goes
/// through the router, which answers it as it answers any path.
struct InputsFirstResponder<Context: RequestContext>: HTTPResponder {
    /// The router's responder, for every other request.
    let router: RouterResponder<Context>
    /// The inputs' route, inside the router's middlewares.
    let inputs: any HTTPResponder<Context>

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .post, let parameters = Self.inputsParameters(request.uri.path) else {
            return try await router.respond(to: request, context: context)
        }
        var context = context
        context.coreContext.parameters = parameters
        return try await inputs.respond(to: request, context: context)
    }

    /// The route's parameters, `machine` and `key` as written, when `path` is
    /// `/machines/{m}/instances/{key}/inputs` with neither empty; else `nil`.
    static func inputsParameters(_ path: String) -> Parameters? {
        let components = path.utf8.split(separator: UInt8(ascii: "/"), maxSplits: 6, omittingEmptySubsequences: false)
        guard components.count == 6, components[0].isEmpty, components[1].elementsEqual("machines".utf8), !components[2].isEmpty,
            components[3].elementsEqual("instances".utf8), !components[4].isEmpty, components[5].elementsEqual("inputs".utf8)
        else { return nil }
        return ["machine": Substring(components[2]), "key": Substring(components[4])]
    }
}
