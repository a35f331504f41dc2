import Statecraft

/// What `POST /machines/{m}/instances/{key}/clock` asks of an instance's virtual clock:
/// `{"advance": DURATION}` (a duration as `@wait` takes it) or `{"to": "next-timer"}`.
enum ClockMove: Sendable, Equatable {
    /// Move the clock forward by this many milliseconds.
    case advance(milliseconds: Int)
    /// Move the clock to the due time of the earliest pending timer.
    case nextTimer

    /// How far a virtual clock goes, in years (a timer started there, at most 100 years later,
    /// is still far from the largest time).
    static let latestYears = 1_000
    /// ``latestYears`` in milliseconds (``Delay/maximumMilliseconds`` is 100 years).
    static let latestTime = Delay.maximumMilliseconds / 100 * latestYears

    /// The move a request body (a JSON object) asks for, or what is wrong with it, naming the
    /// member.
    static func parse(_ request: JSONValue) -> Result<ClockMove, ClockMoveError> {
        if let problem = InstanceService.unknownMembers(request, allowed: ["advance", "to"]) { return .failure(ClockMoveError(problem)) }
        switch (request["advance"], request["to"]) {
        case (.some, .some):
            return .failure(ClockMoveError("give either 'advance' or 'to', not both"))
        case (.none, .none):
            return .failure(ClockMoveError("give 'advance' (a duration, such as \"1m\") or 'to' (\"next-timer\")"))
        case (.some(let advance), .none):
            guard case .string(let text) = advance else {
                return .failure(ClockMoveError("'advance' must be a duration as a string, such as \"1m\", got \(advance.kind)"))
            }
            do {
                return .success(.advance(milliseconds: try Delay.milliseconds(Array(text.utf8))))
            } catch {
                return .failure(ClockMoveError("'advance' is not a duration: \"\(InstanceService.shown(text))\": \(error.message)"))
            }
        case (.none, .some(let to)):
            guard case .string(let target) = to, target == "next-timer" else {
                let got = if case .string(let target) = to { "\"\(InstanceService.shown(target))\"" } else { to.kind }
                return .failure(ClockMoveError("'to' must be \"next-timer\", got \(got)"))
            }
            return .success(.nextTimer)
        }
    }
}

/// Why a clock move's request is refused (400), naming the member at fault.
struct ClockMoveError: Error, Sendable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
