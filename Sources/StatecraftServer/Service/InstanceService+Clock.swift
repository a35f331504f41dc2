import SmrunCore
import Statecraft
import StatecraftStore

extension InstanceService {
    /// `POST /machines/{m}/instances/{key}/clock`: moves an instance's virtual clock, by a
    /// duration or to its earliest pending timer, firing every timer due by then, each as a
    /// history entry. Answered as a send is, with the results of the timers that fired. A move
    /// that fires nothing records no entry, and the instance keeps its version.
    package func moveClock(machine name: String, key: String, body: [UInt8], ifMatch: IfMatch?, idempotencyKey: String?) async throws -> APIAnswer {
        guard catalog.current(name) != nil else { return Self.unknownMachine(name) }
        guard InstanceID.isValidKey(key) else { return Self.badKey(key) }
        guard clock == .virtual else {
            return .problem(
                409, "Conflict", "this server runs on the real clock: timers fire when they fall due, and no request moves a clock "
                    + "(smrun serve --clock virtual gives each instance a clock of its own)")
        }
        let request: JSONValue
        do { request = try Self.parseBody(body, allowEmpty: false) } catch { return .badRequest(error.message) }
        let move: ClockMove
        switch ClockMove.parse(request) {
        case .success(let parsed): move = parsed
        case .failure(let problem): return .badRequest(problem.message)
        }
        let id = InstanceID(machine: name, key: key)
        return try await change(id, request: request, ifMatch: ifMatch, idempotencyKey: idempotencyKey) { found, now in
            guard let found else { return (nil, .notFound("no instance '\(key)' of '\(name)'")) }
            guard found.runtime.machine.hasTimers else {
                return (nil, .problem(409, "Conflict", "'\(name)' has no timers: its instances' clocks stay at 0"))
            }
            let time = found.snapshot.time
            let target: Int
            switch move {
            case .advance(let milliseconds):
                target = time + milliseconds
                guard target <= ClockMove.latestTime else {
                    return (nil, .badRequest("'advance' would move the clock past its end, \(ClockMove.latestYears) years (it is at \(time) ms)"))
                }
            case .nextTimer:
                guard let due = found.snapshot.timers.map(\.due).min() else { return (nil, .problem(409, "Conflict", "no timer is pending")) }
                target = max(due, time)
                guard target <= ClockMove.latestTime else {
                    return (nil, .problem(409, "Conflict", "the next timer is due past the clock's end, \(ClockMove.latestYears) years"))
                }
            }
            let run = found.runtime.advance(found.snapshot, to: target)
            let write = self.write(run, id: id, runtime: found.runtime, previous: found.stored, now: now)
            let results = write.entries.map { $0.results.dropFirst().dropLast() }.filter { !$0.isEmpty }.joined(separator: ",")
            let instance = self.json(write.instance, snapshot: run.snapshot, runtime: found.runtime)
            let body = Array("{\"instance\":\(instance),\"results\":[\(results)]}".utf8)
            return (write, APIAnswer(status: 200, version: write.instance.version, body: body))
        }
    }
}
