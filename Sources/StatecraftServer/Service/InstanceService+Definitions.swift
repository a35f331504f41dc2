import SmrunCore
import Statecraft
import StatecraftStore

/// The definitions of a machine that instances run on, by fingerprint: as JSON, and drawn.
extension InstanceService {
    /// The definition of machine `name` with `fingerprint`, as the store keeps it (any
    /// definition an instance of the machine was created on); a 404 answer when there is none.
    package func definition(machine name: String, fingerprint: String) async throws -> Result<MachineRuntime, DefinitionNotFound> {
        guard try await knows(name) else { return .failure(DefinitionNotFound(answer: Self.unknownMachine(name))) }
        guard fingerprint.utf8.count <= 200, let stored = try await store.definition(fingerprint: fingerprint), stored.machine == name else {
            let shown = fingerprint.count > 80 ? String(fingerprint.prefix(80)) + "..." : fingerprint
            return .failure(DefinitionNotFound(answer: .notFound("machine '\(name)' has no definition '\(JSONText.escapingControls(shown))'")))
        }
        return .success(try await catalog.runtime(fingerprint: stored.fingerprint))
    }

    /// `GET /machines/{m}/definitions/{fingerprint}`.
    package func definitionJSON(machine name: String, fingerprint: String) async throws -> APIAnswer {
        switch try await definition(machine: name, fingerprint: fingerprint) {
        case .success(let runtime): APIAnswer(status: 200, body: DefinitionJSON.definition(runtime))
        case .failure(let notFound): notFound.answer
        }
    }

    /// `GET /machines/{m}/definitions/{fingerprint}/diagram.mmd`: the Mermaid text of the
    /// drawing that `diagram.svg` answers (one edge per transition).
    package func mermaid(machine name: String, fingerprint: String) async throws -> APIAnswer {
        switch try await definition(machine: name, fingerprint: fingerprint) {
        case .success(let runtime):
            let text = Diagram.render(
                runtime.machine, definition: runtime.written, format: .mermaid, options: Diagram.Options(identifiesParts: true))
            return APIAnswer(status: 200, body: Array(text.utf8), contentType: "text/plain; charset=utf-8")
        case .failure(let notFound):
            return notFound.answer
        }
    }

    /// `GET /machines/{m}/definitions/{fingerprint}/diagram.svg`, drawn by `diagrams`.
    package func svg(machine name: String, fingerprint: String, diagrams: DiagramCache) async throws -> APIAnswer {
        let runtime: MachineRuntime
        switch try await definition(machine: name, fingerprint: fingerprint) {
        case .success(let found): runtime = found
        case .failure(let notFound): return notFound.answer
        }
        do {
            return APIAnswer(status: 200, body: try await diagrams.svg(runtime), contentType: "image/svg+xml")
        } catch let failure as Graphviz.Failure {
            switch failure {
            case .notInstalled, .timedOut: return .problem(503, "Service Unavailable", failure.message)
            case .failed: return .problem(500, "Internal Server Error", failure.message)
            }
        }
    }
}

/// No such machine or definition: the 404 answer that says which.
package struct DefinitionNotFound: Error {
    package var answer: APIAnswer
}
