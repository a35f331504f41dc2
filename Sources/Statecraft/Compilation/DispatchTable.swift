/// How ``Runner`` finds and takes the transition for an input: a `state x input` table of
/// cells, cell `state * inputCount + input`.
///
/// Most cells are settled by one code, read with one load: the transition to take, when the
/// cell's only candidate has no guard and its effect bodies only copy values (so they cannot
/// fail or queue inputs), or that the cell has no candidate, or that its state is final. The
/// other cells list their candidates, in file order, for a search that evaluates guards.
@usableFromInline
struct DispatchTable: Sendable {
    /// A code for a cell without candidates.
    @usableFromInline static let unhandled: Int32 = -1
    /// A code for every cell of a final state.
    @usableFromInline static let finished: Int32 = -2
    /// A code for a cell whose candidates are searched.
    @usableFromInline static let search: Int32 = -3

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

    /// How one cell is settled.
    @usableFromInline
    struct Cell: Sendable {
        /// The index of the transition taken directly, or a code below zero.
        @usableFromInline let code: Int32
        /// For a transition taken directly: the state after it (its source, for one that stays).
        @usableFromInline let next: Int32
        /// For a transition taken directly: whether it runs copies.
        @usableFromInline let copies: Bool
    }

    @usableFromInline let inputCount: Int
    @usableFromInline let cells: [Cell]
    /// The candidates of a cell are `cellTransitions[cellStart[cell] ..< cellStart[cell + 1]]`.
    @usableFromInline let cellStart: [Int32]
    @usableFromInline let cellTransitions: [Int32]
    /// Per transition, what taking it needs without touching ``CompiledMachine/transitions``
    /// (whose elements hold arrays, so reading one costs reference counting): the target (-1
    /// stays), whether it has a guard, and whether any effect it may run has a body.
    @usableFromInline let targets: [Int32]
    @usableFromInline let isGuarded: [Bool]
    @usableFromInline let runsBodies: [Bool]
    /// The copies of a directly taken transition: its source's exit effects'
    /// (`copies[exitCopies[state] ..< exitCopies[state + 1]]`), its own (by transition index),
    /// then its target's entry effects'. Only filled where every body of the part copies.
    @usableFromInline let exitCopies: [Int32]
    @usableFromInline let transitionCopies: [Int32]
    @usableFromInline let entryCopies: [Int32]
    @usableFromInline let copies: [Copy]

    init(
        stateCount: Int, inputCount: Int, isFinal: [Bool], transitions: [CompiledTransition], effects: [CompiledEffect],
        entryEffects: [[Int]], exitEffects: [[Int]]
    ) {
        self.inputCount = inputCount
        // The candidates, by counting sort: one pass to size each cell, one to fill it.
        var start = [Int32](repeating: 0, count: stateCount * inputCount + 1)
        for transition in transitions {
            for state in transition.sources { start[state * inputCount + transition.input + 1] += 1 }
        }
        for cell in start.indices.dropFirst() { start[cell] += start[cell - 1] }
        var next = start
        var cellTransitions = [Int32](repeating: 0, count: Int(start.last ?? 0))
        for (index, transition) in transitions.enumerated() {
            for state in transition.sources {
                let cell = state * inputCount + transition.input
                cellTransitions[Int(next[cell])] = Int32(index)
                next[cell] += 1
            }
        }
        cellStart = start
        self.cellTransitions = cellTransitions
        targets = transitions.map { Int32($0.target) }
        isGuarded = transitions.map { $0.guardExpression != nil }
        runsBodies = transitions.map { transition in
            var ids = transition.effects
            if transition.target >= 0 {
                ids += entryEffects[transition.target]
                for source in transition.sources { ids += exitEffects[source] }
            }
            return ids.contains { effects[$0].hasBody }
        }

        // The copy-only parts, laid end to end.
        var copies: [Copy] = []
        func copyPart(_ ids: [Int]) -> Bool {
            let before = copies.count
            for id in ids {
                guard effects[id].sends.isEmpty else {
                    copies.removeSubrange(before...)
                    return false
                }
                for assignment in effects[id].assignments {
                    guard let source = Copy.Source(assignment.value) else {
                        copies.removeSubrange(before...)
                        return false
                    }
                    copies.append(Copy(slot: assignment.slot, source: source))
                }
            }
            return true
        }
        func parts(_ lists: [[Int]]) -> (starts: [Int32], copies: [Bool]) {
            var starts: [Int32] = []
            var copiesOnly: [Bool] = []
            for ids in lists {
                starts.append(Int32(copies.count))
                copiesOnly.append(copyPart(ids))
            }
            starts.append(Int32(copies.count))
            return (starts, copiesOnly)
        }
        let exit = parts(exitEffects)
        let entry = parts(entryEffects)
        let own = parts(transitions.map(\.effects))
        exitCopies = exit.starts
        entryCopies = entry.starts
        transitionCopies = own.starts
        self.copies = copies

        var cells = [Cell](repeating: Cell(code: Self.unhandled, next: -1, copies: false), count: stateCount * inputCount)
        for state in 0..<stateCount {
            for input in 0..<inputCount {
                let cell = state * inputCount + input
                let count = start[cell + 1] - start[cell]
                if isFinal[state] {
                    cells[cell] = Cell(code: Self.finished, next: -1, copies: false)
                } else if count == 1 {
                    let index = Int(cellTransitions[Int(start[cell])])
                    let target = transitions[index].target
                    let direct =
                        !isGuarded[index] && own.copies[index]
                        && (target < 0 || (exit.copies[state] && entry.copies[target]))
                    cells[cell] =
                        direct
                        ? Cell(code: Int32(index), next: Int32(target >= 0 ? target : state), copies: runsBodies[index])
                        : Cell(code: Self.search, next: -1, copies: false)
                } else if count > 1 {
                    cells[cell] = Cell(code: Self.search, next: -1, copies: false)
                }
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
