/// A state, with the effects that run when it is entered or left, and, in a statechart, its
/// children: nested states, parallel regions, a history pseudo-state.
package struct StateDeclaration: Sendable {
    /// What a history pseudo-state remembers of its parent when the parent is left.
    package enum HistoryKind: String, Sendable, CaseIterable {
        /// The parent's child that was active.
        case shallow
        /// Every atomic descendant of the parent that was active.
        case deep
    }

    /// The state's name.
    package var name: Named
    /// Effects run on entering the state, in order.
    package var entry: [Named]
    /// Effects run on leaving the state, in order.
    package var exit: [Named]
    /// A final state accepts no more inputs (at the top level), or completes its parent.
    package var isFinal: Bool
    /// The nested states, in file order; empty for an atomic state.
    package var children: [StateDeclaration]
    /// The state's `initial`: a child, or descendants one per region. Empty: the first child.
    package var initial: [Named]
    /// Whether the children are regions that are all active together.
    package var isParallel: Bool
    /// Set for a history pseudo-state: what it remembers.
    package var history: HistoryKind?
    /// A history pseudo-state's `default`: where it leads before its parent was ever left.
    package var historyDefault: [Named]
    /// `default_effects`: effects of a default entry, run right after the entry effects of the
    /// compound state (for a history state, of its parent). On a compound state, when it is
    /// entered through its `initial` (not when a transition targets a descendant); on a
    /// history state, when it leads to its `default`. SCXML's `<initial>` and `<history>`
    /// transition content.
    package var defaultEffects: [Named]

    /// What the state means, shown by diagrams; no part of what the machine does.
    package var description: String?

    /// A state named `name`, with its entry and exit effects, what it means and, in a
    /// statechart, its children and the options of a compound, parallel or history state.
    package init(
        _ name: Named, entry: [Named] = [], exit: [Named] = [], isFinal: Bool = false, description: String? = nil,
        children: [StateDeclaration] = [], initial: [Named] = [], isParallel: Bool = false, history: HistoryKind? = nil,
        historyDefault: [Named] = [], defaultEffects: [Named] = []
    ) {
        self.name = name
        self.entry = entry
        self.exit = exit
        self.isFinal = isFinal
        self.description = description
        self.children = children
        self.initial = initial
        self.isParallel = isParallel
        self.history = history
        self.historyDefault = historyDefault
        self.defaultEffects = defaultEffects
    }
}
