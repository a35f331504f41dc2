/// The names a file decoder met, one `String` per distinct spelling, by the spelling's id
/// (``Named/spelling``): the transitions it decodes keep their names as ids into it rather than
/// as a `String` each (``TransitionDefinition``), so that a large machine's rows take a quarter
/// of the memory and retain no string each.
///
/// Only the decoder that made the table appends to it, before it hands out any definition:
/// afterwards it is only read, from any thread.
@usableFromInline
package final class SpellingTable: @unchecked Sendable {
    /// The spellings, by id.
    @exclusivity(unchecked) package private(set) var strings: [String] = []
    /// The source states and effects after the first of each, of the transitions that keep
    /// their names here (``TransitionDefinition/moreNamesStart``).
    @usableFromInline @exclusivity(unchecked) package private(set) var moreNames: [TransitionDefinition.CompactName] = []

    package init() {}

    /// Adds the next spelling; its id is the number of spellings before it.
    package func append(_ string: String) {
        strings.append(string)
    }

    /// Appends a transition's further source states, then its further effects, to
    /// ``moreNames``; where they start.
    @inlinable
    package func appendMoreNames(
        _ sources: some Collection<TransitionDefinition.CompactName>, _ effects: some Collection<TransitionDefinition.CompactName>
    ) -> Int32 {
        let start = moreNames.count
        precondition(start + sources.count + effects.count <= Int(Int32.max), "more names than a spelling table holds")
        moreNames.append(contentsOf: sources)
        moreNames.append(contentsOf: effects)
        return Int32(start)
    }

    /// Whether `named` is kept here: a spelling of this table, for that very name.
    package func holds(_ named: Named) -> Bool {
        named.spelling >= 0 && named.spelling < strings.count && strings[named.spelling] == named.name
    }

    /// The name of `spelling`, written at `position`.
    package func named(_ spelling: Int32, at position: SourcePosition) -> Named {
        Named(strings[Int(spelling)], at: position, spelling: Int(spelling))
    }
}
