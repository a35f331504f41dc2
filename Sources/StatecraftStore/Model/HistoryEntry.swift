/// One entry of an instance's append-only history: its start, one input, or one timer, with
/// the results it printed (the JSON objects `smrun --format json` prints, as one JSON array).
package struct HistoryEntry: Sendable, Equatable {
    package var id: InstanceID
    /// 1 for the start, then 2, 3...: an instance's version is the seq of its last entry.
    package var seq: Int
    /// When it was applied, in milliseconds since the Unix epoch.
    package var at: Int
    package var kind: Kind
    /// The input's name (an input entry).
    package var input: String?
    /// The input's argument as JSON text, or `nil` when there is none.
    package var argument: String?
    /// The timer that fired, as JSON text (a timer entry).
    package var timer: String?
    /// The results, as a JSON array's text.
    package var results: String
    /// The instance after the entry, as the members of a JSON object's text:
    /// `"status":...,"state":...` (or `"configuration":...,"history_states":...`)
    /// `,"context":{...},"transitions":[N,...]` (``EntryRecorder``); `nil` for an entry stored
    /// before the store kept it.
    package var stateAfter: String?
    /// Where the entry stands among all of its machine's entries, in commit order: the
    /// per-machine events feed's cursor. 0 until stored.
    package var position: Int64 = 0

    package enum Kind: String, Sendable {
        case start, input, timer
    }

    package init(
        id: InstanceID, seq: Int, at: Int, kind: Kind, input: String? = nil, argument: String? = nil, timer: String? = nil, results: String,
        stateAfter: String? = nil
    ) {
        self.id = id
        self.seq = seq
        self.at = at
        self.kind = kind
        self.input = input
        self.argument = argument
        self.timer = timer
        self.results = results
        self.stateAfter = stateAfter
    }
}
