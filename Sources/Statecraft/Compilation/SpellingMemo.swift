/// Remembers what the compiler found for a name by the name's spelling (``Named/spelling``): a
/// large file writes a few thousand names hundreds of thousands of times, and the decoder gave
/// each distinct spelling an id, so each need be looked up once.
///
/// A remembered answer is given only for the very name it was found for (the same `String`, so
/// the check is one compare of its storage), so a spelling from another file, or a name changed
/// after decoding, is looked up afresh; a name without a spelling always is.
struct SpellingMemo<Answer> {
    /// By spelling: the name last remembered with it, and the answer.
    private var known: [(name: String, answer: Answer)?] = []

    /// The answer remembered for `named`, if any.
    func remembered(_ named: Named) -> Answer? {
        let spelling = named.spelling
        guard spelling >= 0, spelling < known.count, let entry = known[spelling], entry.name == named.name else { return nil }
        return entry.answer
    }

    mutating func remember(_ answer: Answer, for named: Named) {
        let spelling = named.spelling
        guard spelling >= 0 else { return }
        if spelling >= known.count { known += repeatElement(nil, count: spelling + 1 - known.count) }
        known[spelling] = (named.name, answer)
    }
}
