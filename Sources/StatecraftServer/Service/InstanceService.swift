import Foundation
import SmrunCore
import Statecraft
import StatecraftStore

/// The instances API without HTTP: each operation checks its request, runs the machine in the
/// store's transaction for the instance, and answers (``APIAnswer``). Every answer that
/// changed something goes out after its transaction is durable.
package final class InstanceService: Sendable {
    package let store: any InstanceStore
    package let catalog: DefinitionCatalog
    /// How long an idempotency record is kept, in milliseconds.
    package let idempotencyTTL: Int
    /// Wakes the events feeds after each commit.
    package let commits = CommitSignal()
    /// Wakes the timers after a commit that left timers pending (one may fall due before they
    /// planned to look again), and after each commit heard of from another server.
    package let timerWakes = CommitSignal()
    /// The clock the instances run on: the real one, or a virtual clock per instance that
    /// only a request moves.
    package let clock: MachineSnapshot.Clock

    package init(catalog: DefinitionCatalog, idempotencyTTL: Int, clock: MachineSnapshot.Clock) {
        store = catalog.store
        self.catalog = catalog
        self.idempotencyTTL = idempotencyTTL
        self.clock = clock
    }

    // MARK: - Create and send

    /// `POST /machines/{m}/instances`.
    package func create(machine name: String, body: [UInt8], idempotencyKey: String?) async throws -> APIAnswer {
        guard let runtime = catalog.current(name) else { return Self.unknownMachine(name) }
        let request: JSONValue
        do { request = try Self.parseBody(body, allowEmpty: true) } catch { return .badRequest(error.message) }
        if let problem = Self.unknownMembers(request, allowed: ["key", "context"]) { return .badRequest(problem) }
        var key = UUID().uuidString.lowercased()
        if let given = request["key"] {
            guard case .string(let text) = given else { return .badRequest("'key' must be a string, got \(given.kind)") }
            guard InstanceID.isValidKey(text) else { return Self.badKey(text) }
            key = text
        }
        var context: [Value]? = nil
        if let given = request["context"] {
            switch ContextValues.values(given, machine: runtime.machine) {
            case .success(let values): context = values
            case .failure(let problem): return .badRequest(problem.message)
            }
        }
        let id = InstanceID(machine: name, key: key)
        let scope = idempotencyKey.map { IdempotencyScope(scope: "", key: $0) }
        let ttl = idempotencyTTL
        let (newKey, startContext) = (key, context)
        return try await transact(id, idempotency: scope) { found in
            if let repeated = Self.repeatedAnswer(found.idempotency, request: request, now: found.now) { return TransactionOutput(answer: repeated) }
            if let existing = found.instance {
                let json = (try? runtime.snapshot(existing.snapshot)).map { self.json(existing, snapshot: $0, runtime: runtime) }
                return TransactionOutput(
                    answer: .problem(409, "Conflict", "instance '\(newKey)' of '\(name)' exists", extra: json.map { "\"instance\":\($0)" }))
            }
            let run = self.start(runtime, context: startContext, now: found.now)
            let write = self.write(run, id: id, runtime: runtime, previous: nil, now: found.now)
            let body = Array(self.json(write.instance, snapshot: run.snapshot, runtime: runtime).utf8)
            let answer = APIAnswer(status: 201, version: write.instance.version, location: Self.location(id), body: body)
            return TransactionOutput(
                write: write, idempotency: Self.record(answer, request: request, scope: scope, key: newKey, now: found.now, ttl: ttl),
                answer: answer)
        }
    }

    /// `POST /machines/{m}/instances/{key}/inputs`.
    package func send(machine name: String, key: String, body: [UInt8], ifMatch: IfMatch?, idempotencyKey: String?) async throws -> APIAnswer {
        guard let current = catalog.current(name) else { return Self.unknownMachine(name) }
        guard InstanceID.isValidKey(key) else { return Self.badKey(key) }
        let request: JSONValue
        do { request = try Self.parseBody(body, allowEmpty: false) } catch { return .badRequest(error.message) }
        if let problem = Self.unknownMembers(request, allowed: ["input", "arg", "create"]) { return .badRequest(problem) }
        guard case .string(let input) = request["input"] ?? .null else {
            return .badRequest("'input' must name an input of '\(name)' as a string")
        }
        // `null` is no argument, as a history entry shows one (and as smrun's JSON Lines take it).
        let argument = request["arg"].flatMap { $0 == .null ? nil : $0.text }
        let creates: Bool
        if let flag = request["create"] {
            guard case .bool(let value) = flag else { return .badRequest("'create' must be true or false, got \(flag.kind)") }
            creates = value
        } else {
            creates = false
        }
        let id = InstanceID(machine: name, key: key)
        return try await change(id, request: request, ifMatch: ifMatch, idempotencyKey: idempotencyKey) { found, now in
            var started: InstanceRun? = nil
            let runtime: MachineRuntime
            let snapshot: MachineSnapshot
            if let found {
                runtime = found.runtime
                snapshot = found.snapshot
            } else {
                guard creates else { return (nil, .notFound("no instance '\(key)' of '\(name)'")) }
                runtime = current
                let start = self.start(current, context: nil, now: now)
                started = start
                snapshot = start.snapshot
            }
            let run: InstanceRun
            do throws(InputRefusal) {
                // A virtual clock stands still while inputs arrive.
                run = try runtime.send(snapshot, input: input, argument: argument, now: self.clock == .real ? now : nil)
            } catch {
                return (nil, Self.refusal(error, machine: name))
            }
            let inputEntry = (started?.entries.count ?? 0) + run.entries.firstIndex { $0.kind == .input }!
            // A new instance's index rows are its start's unless the input changed them.
            let combined = started.map { run.following($0) } ?? run
            let write = self.write(combined, id: id, runtime: runtime, previous: found?.stored, now: now)
            var answer = APIAnswer(status: 200, version: write.instance.version, body: [])
            if self.clock == .real { answer.timersFired = write.entries.filter { $0.kind == .timer }.map(\.at) }
            let (instance, after, results, clock) = (write.instance, run.snapshot, write.entries[inputEntry].results, self.clock)
            answer.pendingBody = { Self.sendBody(instance, snapshot: after, runtime: runtime, clock: clock, results: results) }
            return (write, answer)
        }
    }

    /// A send's answer, `{"instance":…,"results":…}`, written as bytes; where its results start.
    private static func sendBody(
        _ instance: StoredInstance, snapshot: MachineSnapshot, runtime: MachineRuntime, clock: MachineSnapshot.Clock, results: String
    ) -> (body: [UInt8], resultsStart: Int?) {
        let results = results.utf8
        var body = Array("{\"instance\":".utf8)
        body.reserveCapacity(640 + instance.snapshot.count + results.count)
        InstanceJSON.append(instance, snapshot: snapshot, runtime: runtime, clock: clock, to: &body)
        body.append(contentsOf: ",\"results\":".utf8)
        let resultsStart = body.count
        body.append(contentsOf: results)
        body.append(UInt8(ascii: "}"))
        return (body, resultsStart)
    }

    /// One change of instance `id` (a send, a move of its clock) in the instance's transaction:
    /// a repeat under `idempotencyKey` gets the first answer again; `If-Match` is checked; the
    /// instance's definition is loaded (one not compiled yet is compiled outside the
    /// transaction, which then runs again). Then `decide` writes and answers, given the
    /// instance (`nil` when there is none) and the store's time. An answer below 400 is kept
    /// under the key, and goes out once the transaction is durable; a body that `decide` left
    /// pending is made in the transaction only when the key keeps it, else after it.
    func change(
        _ id: InstanceID, request: JSONValue, ifMatch: IfMatch?, idempotencyKey: String?,
        _ decide: @escaping @Sendable (_ found: FoundInstance?, _ now: Int) throws -> (write: InstanceWrite?, answer: APIAnswer)
    ) async throws -> APIAnswer {
        let (catalog, ttl) = (catalog, idempotencyTTL)
        let scope = idempotencyKey.map { IdempotencyScope(scope: id.key, key: $0) }
        while true {
            do {
                return try await transact(id, idempotency: scope) { found in
                    if let repeated = Self.repeatedAnswer(found.idempotency, request: request, now: found.now) { return TransactionOutput(answer: repeated) }
                    var instance: FoundInstance? = nil
                    if let stored = found.instance {
                        if let ifMatch, !ifMatch.matches(stored.version) {
                            return TransactionOutput(answer: .preconditionFailed("instance '\(id.key)' is at version \(stored.version)"))
                        }
                        guard let runtime = catalog.loaded(fingerprint: stored.fingerprint) else { throw MissingDefinition(fingerprint: stored.fingerprint) }
                        instance = FoundInstance(stored: stored, runtime: runtime, snapshot: try found.snapshot ?? runtime.snapshot(stored.snapshot))
                    } else if ifMatch != nil {
                        return TransactionOutput(answer: .preconditionFailed("instance '\(id.key)' of '\(id.machine)' does not exist"))
                    }
                    var (write, answer) = try decide(instance, found.now)
                    if scope != nil { answer = answer.rendered() }
                    return TransactionOutput(
                        write: write, idempotency: Self.record(answer, request: request, scope: scope, key: id.key, now: found.now, ttl: ttl),
                        answer: answer)
                }
            } catch let missing as MissingDefinition {
                _ = try await catalog.runtime(fingerprint: missing.fingerprint)
            }
        }
    }

    /// Runs `decide` in the instance's transaction; once it answered below 300, wakes the
    /// events feeds, and the timers when its write left timers pending. Then makes the answer's
    /// body if it is pending (``APIAnswer/rendered()``).
    private func transact(
        _ id: InstanceID, idempotency: IdempotencyScope?, _ decide: @escaping @Sendable (TransactionInput) throws -> TransactionOutput<APIAnswer>
    ) async throws -> APIAnswer {
        let (answer, leavesTimers) = try await store.transact(id, idempotency: idempotency) { found in
            let output = try decide(found)
            let leavesTimers = output.write?.timers.map { !$0.isEmpty } ?? false
            return TransactionOutput(write: output.write, idempotency: output.idempotency, answer: (output.answer, leavesTimers))
        }
        if answer.status < 300 {
            commits.signal()
            if leavesTimers { timerWakes.signal() }
        }
        return answer.rendered()
    }

    /// Fires the timers of instance `id` due by now, each as a history entry; the due times of
    /// those that fired. An instance that another transaction holds is left to it (an input
    /// fires the timers due before it; another server may be firing them).
    package func fireDueTimers(of id: InstanceID) async throws -> [Int] {
        guard let stored = try await store.instance(id) else { return [] }
        let runtime = try await catalog.runtime(fingerprint: stored.fingerprint)
        let fired: [Int] = try await store.transactUnlessBusy(id) { found in
            // Deleted, or moved to another definition, since it was read: the next round sees it.
            guard let stored = found.instance, stored.fingerprint == runtime.fingerprint else { return TransactionOutput(answer: []) }
            let run = runtime.advance(try found.snapshot ?? runtime.snapshot(stored.snapshot), to: found.now)
            guard !run.entries.isEmpty else { return TransactionOutput(answer: []) }
            return TransactionOutput(write: self.write(run, id: id, runtime: runtime, previous: stored, now: found.now), answer: run.entries.map(\.at))
        } ?? []
        if !fired.isEmpty { commits.signal() }
        return fired
    }

    // MARK: - Reads and delete

    /// `GET /machines/{m}/instances/{key}`.
    package func instance(machine name: String, key: String) async throws -> APIAnswer {
        guard try await knows(name) else { return Self.unknownMachine(name) }
        guard InstanceID.isValidKey(key) else { return Self.badKey(key) }
        guard let stored = try await store.instance(InstanceID(machine: name, key: key)) else {
            return .notFound("no instance '\(key)' of '\(name)'")
        }
        return APIAnswer(status: 200, version: stored.version, body: Array(try await render(stored).utf8))
    }

    /// `GET /machines/{m}/instances`.
    package func list(machine name: String, state: String?, status: String?, cursor: String?, limit: Int) async throws -> APIAnswer {
        guard try await knows(name) else { return Self.unknownMachine(name) }
        var statusFilter: StoredInstance.Status? = nil
        if let status {
            guard let value = StoredInstance.Status(rawValue: status) else { return .badRequest("status must be 'running' or 'final', got '\(status)'") }
            statusFilter = value
        }
        if let state {
            let definitions = try await store.definitions(machine: name)
            guard definitions.contains(where: { $0.stateNames.contains(state) }) else {
                return .badRequest("no definition of '\(name)' has a state '\(JSONText.escapingControls(state))'")
            }
        }
        var afterKey: String? = nil
        if let cursor {
            guard let key = Cursor.decode(cursor), InstanceID.isValidKey(key) else { return .badRequest("'cursor' is not one this server gave") }
            afterKey = key
        }
        let page = try await store.instances(machine: name, state: state, status: statusFilter, afterKey: afterKey, limit: limit + 1)
        var out = "{\"instances\":["
        for (index, stored) in page.prefix(limit).enumerated() {
            if index > 0 { out += "," }
            out += try await render(stored)
        }
        out += "],\"next\":" + (page.count > limit ? "\"\(Cursor.encode(page[limit - 1].id.key))\"" : "null") + "}"
        return APIAnswer(status: 200, body: Array(out.utf8))
    }

    /// `GET /machines/{m}/instances/{key}/history`.
    package func history(machine name: String, key: String, after: Int, limit: Int) async throws -> APIAnswer {
        guard try await knows(name) else { return Self.unknownMachine(name) }
        guard InstanceID.isValidKey(key) else { return Self.badKey(key) }
        let id = InstanceID(machine: name, key: key)
        guard try await store.instance(id) != nil else { return .notFound("no instance '\(key)' of '\(name)'") }
        let entries = try await store.history(id, afterSeq: after, limit: limit + 1)
        var out = "{\"entries\":[" + entries.prefix(limit).map { InstanceJSON.entry($0) }.joined(separator: ",") + "],\"next\":"
        out += entries.count > limit ? "\"\(entries[limit - 1].seq)\"" : "null"
        return APIAnswer(status: 200, body: Array((out + "}").utf8))
    }

    /// `GET /machines/{m}/instances/{key}/inputs`: each input a client may send, and whether a
    /// transition for it leaves where the instance is (guards not evaluated).
    package func inputs(machine name: String, key: String) async throws -> APIAnswer {
        guard try await knows(name) else { return Self.unknownMachine(name) }
        guard InstanceID.isValidKey(key) else { return Self.badKey(key) }
        guard let stored = try await store.instance(InstanceID(machine: name, key: key)) else {
            return .notFound("no instance '\(key)' of '\(name)'")
        }
        let runtime = try await catalog.runtime(fingerprint: stored.fingerprint)
        let available = runtime.availableInputs(try runtime.snapshot(stored.snapshot))
        return APIAnswer(status: 200, version: stored.version, body: InstanceJSON.availableInputs(available))
    }

    /// `DELETE /machines/{m}/instances/{key}`.
    package func delete(machine name: String, key: String, ifMatch: IfMatch?) async throws -> APIAnswer {
        guard try await knows(name) else { return Self.unknownMachine(name) }
        guard InstanceID.isValidKey(key) else { return Self.badKey(key) }
        let id = InstanceID(machine: name, key: key)
        var expected: Int? = nil
        if let ifMatch {
            guard let stored = try await store.instance(id) else { return .preconditionFailed("instance '\(key)' of '\(name)' does not exist") }
            guard ifMatch.matches(stored.version) else { return .preconditionFailed("instance '\(key)' is at version \(stored.version)") }
            expected = stored.version
        }
        switch try await store.delete(id, expectedVersion: expected) {
        case .deleted:
            commits.signal()
            return APIAnswer(status: 204, body: [])
        case .absent:
            return ifMatch == nil ? .notFound("no instance '\(key)' of '\(name)'") : .preconditionFailed("instance '\(key)' of '\(name)' does not exist")
        case .versionMismatch(let current):
            return .preconditionFailed("instance '\(key)' is at version \(current)")
        }
    }

    /// Whether machine `name` is served, or (for `smrun instances` beside the server) has
    /// definitions in the store.
    package func knows(_ name: String) async throws -> Bool {
        if catalog.current(name) != nil { return true }
        return try await !store.definitions(machine: name).isEmpty
    }

    /// An instance as the API shows it.
    package func render(_ stored: StoredInstance) async throws -> String {
        let runtime = try await catalog.runtime(fingerprint: stored.fingerprint)
        return json(stored, snapshot: try runtime.snapshot(stored.snapshot), runtime: runtime)
    }

    /// An instance as the API shows it, on this service's clock.
    func json(_ stored: StoredInstance, snapshot: MachineSnapshot, runtime: MachineRuntime) -> String {
        InstanceJSON.instance(stored, snapshot: snapshot, runtime: runtime, clock: clock)
    }

    // MARK: - Helpers

    /// A new instance's run: started at `now` on the real clock, at 0 on a virtual one.
    private func start(_ runtime: MachineRuntime, context: [Value]?, now: Int) -> InstanceRun {
        runtime.start(context: context, now: clock == .real ? now : 0, clock: clock)
    }

    /// The instance row and history entries a run writes after `previous` (none for a create),
    /// committed at `now`. An entry's time is when it applied on the real clock (a timer's due
    /// time), and `now` on a virtual one (whose times are the instance's own).
    func write(_ run: InstanceRun, id: InstanceID, runtime: MachineRuntime, previous: StoredInstance?, now: Int) -> InstanceWrite {
        var write = InstanceWrite(run, id: id, fingerprint: runtime.fingerprint, after: previous, now: now)
        if clock == .virtual {
            for index in write.entries.indices { write.entries[index].at = now }
        }
        return write
    }

    /// The first answer again for a repeated request, 422 for another request under its key;
    /// `nil` when there is no record, or its time is up (it is written over; the timers' rounds
    /// delete the others once a minute).
    private static func repeatedAnswer(_ record: IdempotencyRecord?, request: JSONValue, now: Int) -> APIAnswer? {
        guard let record, record.expires > now else { return nil }
        let first = try? JSONValue.parse(record.request)
        guard first == request else {
            return .problem(422, "Unprocessable Content", "this Idempotency-Key was used with a different request body")
        }
        return APIAnswer(recorded: record.answer)
    }

    private static func record(_ answer: APIAnswer, request: JSONValue, scope: IdempotencyScope?, key: String, now: Int, ttl: Int) -> IdempotencyRecord? {
        guard scope != nil, answer.status < 400 else { return nil }
        var bytes: [UInt8] = []
        request.append(to: &bytes)
        return IdempotencyRecord(request: bytes, answer: answer.recorded, instanceKey: key, expires: now + ttl)
    }

    private static func refusal(_ error: InputRefusal, machine: String) -> APIAnswer {
        switch error {
        case .unknownInput(_, let message):
            .problem(400, "Unknown Input", message)
        case .badArgument(_, let message):
            .problem(400, "Bad Argument", message)
        }
    }

    static func location(_ id: InstanceID) -> String { "/machines/\(id.machine)/instances/\(id.key)" }

    static func unknownMachine(_ name: String) -> APIAnswer {
        .notFound("no machine '\(JSONText.escapingControls(name))' is served here")
    }

    static func badKey(_ key: String) -> APIAnswer {
        .badRequest("key '\(shown(key))' is not valid: 1 to 200 of A-Z a-z 0-9 . _ ~ : @ -, not starting with '.'")
    }

    /// A text a client sent, as a message shows it: its first 40 characters, controls escaped.
    static func shown(_ text: String) -> String {
        JSONText.escapingControls(text.count > 40 ? String(text.prefix(40)) + "..." : text)
    }

    static func parseBody(_ body: [UInt8], allowEmpty: Bool) throws(JSONValue.SyntaxError) -> JSONValue {
        if allowEmpty && body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .object([]) }
        let value: JSONValue
        do {
            value = try JSONValue.parse(body, maximumDepth: 32)
        } catch {
            throw JSONValue.SyntaxError(offset: error.offset, message: "the request body is not valid JSON: \(error.message) (at byte \(error.offset))")
        }
        guard case .object = value else { throw JSONValue.SyntaxError(offset: 0, message: "the request body must be a JSON object, got \(value.kind)") }
        return value
    }

    static func unknownMembers(_ request: JSONValue, allowed: [String]) -> String? {
        guard case .object(let members) = request, let unknown = members.first(where: { !allowed.contains($0.key) }) else { return nil }
        return "unknown member '\(JSONText.escapingControls(unknown.key))' (expected \(allowed.map { "'\($0)'" }.joined(separator: ", ")))"
    }
}

/// An instance as a change finds it in its transaction: its row, its definition, its snapshot.
struct FoundInstance: Sendable {
    let stored: StoredInstance
    let runtime: MachineRuntime
    let snapshot: MachineSnapshot
}

/// An instance runs on a definition not compiled yet: the transaction stops, the definition is
/// loaded, and the transaction runs again.
struct MissingDefinition: Error {
    let fingerprint: String
}

/// `If-Match`: `*` or a list of `"VERSION"`s.
package enum IfMatch: Sendable, Equatable {
    case any
    case versions([Int])

    /// Parses the header; `nil` when it names no version this server could have given.
    package init?(header: String) {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" {
            self = .any
            return
        }
        var versions: [Int] = []
        for part in trimmed.split(separator: ",") {
            var tag = part.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            guard tag.count >= 3, tag.hasPrefix("\""), tag.hasSuffix("\""), let version = Int(tag.dropFirst().dropLast()) else { return nil }
            versions.append(version)
        }
        guard !versions.isEmpty else { return nil }
        self = .versions(versions)
    }

    func matches(_ version: Int) -> Bool {
        switch self {
        case .any: true
        case .versions(let versions): versions.contains(version)
        }
    }
}

/// The opaque cursor of a page of instances: the last key, base64url-encoded.
enum Cursor {
    static func encode(_ key: String) -> String {
        Data(key.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ cursor: String) -> String? {
        var text = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard cursor.count <= 300, let data = Data(base64Encoded: text) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
