/// How ``Runner`` finds and takes the transition for an input: a `state x input` table of
/// cells, cell `state * inputCount + input`.
///
/// Most cells are settled by one code, read with one load: the transition to take, when the
/// cell's only candidate has no guard and its effect bodies only copy values (so they cannot
/// fail or queue inputs), or that the cell has no candidate, or that its state is final, or that
/// its only candidate is an unguarded refusal. The
/// other cells list their candidates, in file order, for a search that evaluates guards.
@usableFromInline
struct DispatchTable: Sendable {
    /// A code for a cell without candidates.
    @usableFromInline static let unhandled: Int32 = -1
    /// A code for every cell of a final state.
    @usableFromInline static let finished: Int32 = -2
    /// A code for a cell whose candidates are searched.
    @usableFromInline static let search: Int32 = -3
    /// A code for a cell whose one candidate is an unguarded refusal (`reject: MESSAGE`): the
    /// input is rejected as `refused`. Its `next` is where its candidate is listed, as a search's.
    @usableFromInline static let refused: Int32 = -4

    /// One assignment of a copy-only effect body: a constant, a variable or the argument.
    @usableFromInline
    struct Copy: Sendable {
        @usableFromInline enum Source: Sendable {
            case constant(Value)
            case variable(Int)
            case argument
        }

        @usableFromInline let slot: Int
        @usableFromInline let source: Source
    }

    /// How one cell is settled, in 8 bytes: the table has a cell per state and input, so its
    /// size is most of a large machine's memory and of its load time.
    @usableFromInline
    struct Cell: Sendable {
        /// The index of the transition taken directly, or a code below zero.
        @usableFromInline let code: Int32
        /// For a transition taken directly: the state after it (its source, for one that stays),
        /// as its bitwise complement when the transition runs copies. For any other cell: where
        /// its candidates start in ``DispatchTable/cellTransitions``.
        @usableFromInline let next: Int32
    }

    @usableFromInline let inputCount: Int
    @usableFromInline let cells: [Cell]
    /// The candidates of the cells that are not taken directly, each cell's in file order and
    /// ended by -1. Index 0 holds a lone -1: the empty list where cells without candidates start.
    @usableFromInline let cellTransitions: [Int32]
    /// Per transition, what taking it needs without touching ``CompiledMachine/transitions``
    /// (whose elements hold arrays, so reading one costs reference counting): the target (-1
    /// stays), whether it has a guard, and whether any effect it may run has a body.
    @usableFromInline let targets: [Int32]
    @usableFromInline let isGuarded: [Bool]
    /// Per transition, whether it refuses its input (`reject: MESSAGE`) when selected.
    @usableFromInline let refuses: [Bool]
    @usableFromInline let runsBodies: [Bool]
    /// The copies of a directly taken transition: its source's exit effects'
    /// (`copies[exitCopies[state] ..< exitCopies[state + 1]]`), its own (by transition index),
    /// then its target's entry effects'. Only filled where every body of the part copies.
    @usableFromInline let exitCopies: [Int32]
    @usableFromInline let transitionCopies: [Int32]
    @usableFromInline let entryCopies: [Int32]
    @usableFromInline let copies: [Copy]
    /// Whether any state's exit or entry effects copy: when none do (most machines), a direct
    /// transition's copies are its own, and its source and target parts are not looked up.
    @usableFromInline let hasStateCopies: Bool

    /// Reads `transitions` through a buffer pointer, field by field: copying a whole transition
    /// (as iterating an array does) retains and releases each of its arrays and strings.
    init(
        stateCount: Int, inputCount: Int, isFinal: [Bool], transitions: UnsafeBufferPointer<CompiledTransition>,
        effects: [CompiledEffect], entryEffects: [[Int]], exitEffects: [[Int]], timedStates: [Bool] = []
    ) {
        self.inputCount = inputCount
        let cellCount = stateCount * inputCount
        // Every cell of a final state is settled as such, every other cell starts as `unhandled`;
        // both have no candidates yet, so they start at the empty list.
        var cells = [Cell](repeating: Cell(code: Self.unhandled, next: 0), count: cellCount)
        for state in 0..<stateCount where isFinal[state] {
            for cell in (state * inputCount)..<((state + 1) * inputCount) {
                cells[cell] = Cell(code: Self.finished, next: 0)
            }
        }
        // The candidates, by a counting sort that needs no counter per cell besides the cell:
        // one pass counts each cell's candidates in its `next`, as minus the count; then one
        // backwards pass gives each cell, where it meets it first, the room for its candidates
        // and their -1, and fills that room from its end, leaving the cell its start.
        var listed = 1
        for index in transitions.indices {
            let input = transitions[index].input
            for state in transitions[index].sources {
                let cell = state * inputCount + input
                if cells[cell].next == 0 { listed += 1 }
                cells[cell] = Cell(code: cells[cell].code, next: cells[cell].next - 1)
                listed += 1
            }
        }
        var cellTransitions = [Int32](repeating: -1, count: listed)
        var end: Int32 = 1
        for index in transitions.indices.reversed() {
            let input = transitions[index].input
            for state in transitions[index].sources {
                let cell = state * inputCount + input
                var next = cells[cell].next
                if next < 0 {
                    // The candidates' end: their -1 goes there.
                    end -= next
                    next = end
                    end += 1
                }
                next -= 1
                cellTransitions[Int(next)] = Int32(index)
                cells[cell] = Cell(code: cells[cell].code, next: next)
            }
        }
        self.cellTransitions = cellTransitions
        targets = transitions.indices.map { Int32(transitions[$0].target) }
        isGuarded = transitions.indices.map { transitions[$0].guardExpression != nil }
        refuses = transitions.indices.map { transitions[$0].refusal != nil }
        let hasBody = effects.map(\.hasBody)
        let entryRunsBodies = entryEffects.map { $0.contains { hasBody[$0] } }
        let exitRunsBodies = exitEffects.map { $0.contains { hasBody[$0] } }
        runsBodies = transitions.indices.map { index in
            let target = transitions[index].target
            return transitions[index].effects.contains { hasBody[$0] }
                || (target >= 0 && (entryRunsBodies[target] || transitions[index].sources.contains { exitRunsBodies[$0] }))
        }

        // The copy-only parts, laid end to end.
        var copies: [Copy] = []
        let assignmentsOnly = effects.map(\.assignmentsOnly)
        func copyPart(_ ids: [Int]) -> Bool {
            let before = copies.count
            for id in ids {
                guard let assignments = assignmentsOnly[id] else {
                    copies.removeSubrange(before...)
                    return false
                }
                for assignment in assignments {
                    guard let source = Copy.Source(assignment.value) else {
                        copies.removeSubrange(before...)
                        return false
                    }
                    copies.append(Copy(slot: assignment.slot, source: source))
                }
            }
            return true
        }
        /// Lays out the parts `ids(0) ..< ids(count)`: where each starts, and whether it copies only.
        func parts(_ count: Int, _ ids: (Int) -> [Int]) -> (starts: [Int32], copies: [Bool]) {
            var starts: [Int32] = []
            var copiesOnly: [Bool] = []
            starts.reserveCapacity(count + 1)
            copiesOnly.reserveCapacity(count)
            for index in 0..<count {
                starts.append(Int32(copies.count))
                copiesOnly.append(copyPart(ids(index)))
            }
            starts.append(Int32(copies.count))
            return (starts, copiesOnly)
        }
        let exit = parts(exitEffects.count) { exitEffects[$0] }
        let entry = parts(entryEffects.count) { entryEffects[$0] }
        let own = parts(transitions.count) { transitions[$0].effects }
        exitCopies = exit.starts
        entryCopies = entry.starts
        transitionCopies = own.starts
        self.copies = copies
        // Exit parts are laid out first, then entry parts: where they end says whether any has a copy.
        hasStateCopies = entry.starts.last! > 0

        // Of the cells of states that are not final, those with candidates are settled as a
        // search, or as taken directly when their one candidate can be.
        for index in transitions.indices {
            let input = transitions[index].input
            let target = transitions[index].target
            for state in transitions[index].sources where !isFinal[state] {
                let cell = state * inputCount + input
                let start = cells[cell].next
                // A cell of one candidate (its list is it and -1) is this transition's.
                let alone = cellTransitions[Int(start) + 1] < 0 && !isGuarded[index]
                // A move out of or into a state with `after` timers is searched: the search
                // starts and cancels timers, so the direct path never does clock work.
                let moves = target >= 0 && !timedStates.isEmpty
                let direct =
                    alone && !refuses[index] && own.copies[index]
                    && (target < 0 || (exit.copies[state] && entry.copies[target]))
                    && !(moves && (timedStates[state] || timedStates[target]))
                let next = Int32(target >= 0 ? target : state)
                cells[cell] =
                    direct
                    ? Cell(code: Int32(index), next: runsBodies[index] ? ~next : next)
                    : Cell(code: alone && refuses[index] ? Self.refused : Self.search, next: start)
            }
        }
        self.cells = cells
    }
}

extension DispatchTable.Copy.Source {
    /// The source of an assignment whose value is a constant, a variable or the argument;
    /// `nil` for any other expression, which may fail to evaluate.
    init?(_ expression: CompiledExpression) {
        switch expression {
        case .constant(let value): self = .constant(value)
        case .variable(let slot): self = .variable(slot)
        case .argument: self = .argument
        default: return nil
        }
    }
}
