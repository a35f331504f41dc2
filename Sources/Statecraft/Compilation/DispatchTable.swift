/// How ``TableRunner`` finds and takes the transition for an input: a `state x input` table of
/// cells. A small table, or one whose cells mostly have transitions, is dense, a full row per
/// state; a large sparse one lays each state's row over the others' gaps (row displacement),
/// so that it grows with the machine's transitions rather than with its states times its
/// inputs (``isDense(stateCount:inputCount:pairs:)``).
///
/// The cell of `input` in `state` is `cells[rows[state].start + input]` when that cell's owner
/// is `state`; any other cell there belongs to another state's row or to none, and the state
/// has no candidate for the input (``cell(state:input:)``). Rows are placed where their cells
/// are free (``RowPacking``); every row's whole width is inside the array, so no lookup is out
/// of bounds. A dense row starts at its state times the input count and owns all its cells.
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

    /// How one cell is settled, in 12 bytes.
    @usableFromInline
    struct Cell: Sendable {
        /// The index of the transition taken directly, or a code below zero.
        @usableFromInline let code: Int32
        /// For a transition taken directly: the state after it (its source, for one that stays),
        /// as its bitwise complement when the transition runs copies. For any other cell: where
        /// its candidates start in ``DispatchTable/cellTransitions``.
        @usableFromInline let next: Int32
        /// The state whose row the cell is in; -1 for a cell in no row.
        @usableFromInline let owner: Int32

        @usableFromInline
        init(code: Int32, next: Int32, owner: Int32 = -1) {
            self.code = code
            self.next = next
            self.owner = owner
        }
    }

    /// Where a state's row starts in ``cells``, and the code of an input it has no cell for
    /// (``finished`` for a final state, else ``unhandled``).
    @usableFromInline
    struct Row: Sendable {
        @usableFromInline let start: Int32
        @usableFromInline let outsideCode: Int32
    }

    /// The rows, laid over each other's gaps; a lookup goes through ``cell(state:input:)``.
    @usableFromInline let cells: [Cell]
    /// Per state, its row.
    @usableFromInline let rows: [Row]
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
    /// For a dense table, the input count: state `s`'s row starts at `s * denseStride`, found
    /// without a load, and has a cell for every input. 0 when rows are laid over each other's
    /// gaps (``isDense(stateCount:inputCount:pairs:)``).
    @usableFromInline let denseStride: Int32

    /// Reads `transitions` through a buffer pointer, field by field: copying a whole transition
    /// (as iterating an array does) retains and releases each of its arrays and strings.
    init(
        stateCount: Int, inputCount: Int, isFinal: [Bool], transitions: UnsafeBufferPointer<CompiledTransition>,
        effects: [CompiledEffect], entryEffects: [[Int]], exitEffects: [[Int]], timedStates: [Bool] = []
    ) {
        let targets = transitions.indices.map { Int32(transitions[$0].target) }
        let isGuarded = transitions.indices.map { transitions[$0].guardExpression != nil }
        let refuses = transitions.indices.map { transitions[$0].refusal != nil }
        let hasBody = effects.map(\.hasBody)
        let entryRunsBodies = entryEffects.map { $0.contains { hasBody[$0] } }
        let exitRunsBodies = exitEffects.map { $0.contains { hasBody[$0] } }
        let runsBodies = transitions.indices.map { index in
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

        /// Whether transition `index`, the one unguarded candidate of its cell in `state`, is
        /// taken directly: it neither refuses nor runs anything but copies, and moves neither out
        /// of nor into a state with `after` timers (the search starts and cancels timers, so the
        /// direct path never does clock work).
        func isDirect(_ index: Int, from state: Int) -> Bool {
            let target = Int(targets[index])
            guard !refuses[index], own.copies[index], target < 0 || (exit.copies[state] && entry.copies[target]) else { return false }
            return target < 0 || timedStates.isEmpty || !(timedStates[state] || timedStates[target])
        }
        self.targets = targets
        self.isGuarded = isGuarded
        self.refuses = refuses
        self.runsBodies = runsBodies
        let built = Self.cells(
            stateCount: stateCount, inputCount: inputCount, isFinal: isFinal, transitions: transitions
        ) { index, state in
            if isGuarded[index] { return Cell(code: Self.search, next: 0) }
            if refuses[index] { return Cell(code: Self.refused, next: 0) }
            guard isDirect(index, from: state) else { return Cell(code: Self.search, next: 0) }
            let next = Int32(targets[index] >= 0 ? targets[index] : Int32(state))
            return Cell(code: Int32(index), next: runsBodies[index] ? ~next : next)
        }
        cells = built.cells
        rows = built.rows
        cellTransitions = built.candidates
        denseStride = built.denseStride
    }

    /// How `input` is settled in `state`.
    @inlinable @inline(__always)
    func cell(state: Int, input: Int) -> Cell {
        cell(row: rows[state], state: state, input: input)
    }

    /// How `input` is settled in `state`, which must be one of the machine's states (the
    /// runner's, which is never another), for the engine's hot path: in a dense table the row
    /// starts at a product, with no load before the cell's (whose index is checked); else the
    /// row is read unchecked.
    @inlinable @inline(__always)
    func cell(validState state: Int, input: Int) -> Cell {
        if denseStride > 0 { return cells[state &* Int(denseStride) &+ input] }
        return cell(row: rows.withUnsafeBufferPointer { $0[state] }, state: state, input: input)
    }

    /// Whether a table is dense, a full row per state: when it has at most 65,536 cells, or
    /// when at least a quarter of them have a transition. A dense row's start is a product, and
    /// the lookup reads the cell at once; laid over each other's gaps, rows take memory in
    /// proportion to the transitions, but the lookup reads the row's start first, a load more
    /// on the chain from one state to the next (some 1.8 ns per transition for the engine).
    static func isDense(stateCount: Int, inputCount: Int, pairs: Int) -> Bool {
        let (cells, overflow) = stateCount.multipliedReportingOverflow(by: inputCount)
        return !overflow && (cells <= 1 << 16 || pairs >= cells / 4)
    }

    @inlinable @inline(__always)
    func cell(row: Row, state: Int, input: Int) -> Cell {
        let cell = cells[Int(row.start) &+ input]
        if _fastPath(cell.owner == Int32(truncatingIfNeeded: state)) { return cell }
        return Cell(code: row.outsideCode, next: 0, owner: Int32(truncatingIfNeeded: state))
    }

    // MARK: - Building the cells

    /// The cells, state by state, and the candidates of those not taken directly. A cell with
    /// one candidate is settled by `settle(candidate, state)`, which gives a search or refusal
    /// its code only (its `next` is filled in here); a cell with several is searched; a cell of
    /// a final state is finished, its candidates listed all the same. A cell without candidates
    /// is in no row: it is what a lookup outside the row gives.
    ///
    /// Each row, its cells found, is appended whole to a dense table, or placed at the first
    /// start where every one of its cells is free (``RowPacking``).
    private static func cells(
        stateCount: Int, inputCount: Int, isFinal: [Bool], transitions: UnsafeBufferPointer<CompiledTransition>,
        settle: (Int, Int) -> Cell
    ) -> (cells: [Cell], rows: [Row], candidates: [Int32], denseStride: Int32) {
        // No cells, so no pairs either (a statechart's table, a machine without inputs).
        guard stateCount * inputCount > 0 else { return ([], [], [-1], Int32(inputCount)) }
        // Each state's (transition, source) pairs, in file order: a counting sort by state.
        var pairStarts = [Int](repeating: 0, count: stateCount + 1)
        for index in transitions.indices {
            for state in transitions[index].sources { pairStarts[state + 1] += 1 }
        }
        for state in 0..<stateCount { pairStarts[state + 1] += pairStarts[state] }
        // Each pair's transition and input, read here in file order: the rows below read them
        // in state order, which would be a cache miss each in a large machine's transitions.
        var pairTransitions = [Int32](repeating: 0, count: pairStarts[stateCount])
        var pairInputs = [Int32](repeating: 0, count: pairStarts[stateCount])
        var filled = pairStarts
        for index in transitions.indices {
            let input = Int32(transitions[index].input)
            for state in transitions[index].sources {
                pairTransitions[filled[state]] = Int32(index)
                pairInputs[filled[state]] = input
                filled[state] += 1
            }
        }
        filled = []
        // Index 0 holds a lone -1: the empty list where cells without candidates start. Every
        // other list is at most a candidate and its -1 per pair.
        var candidates: [Int32] = [-1]
        candidates.reserveCapacity(1 + 2 * pairTransitions.count)
        // Per input, in the row being built: its candidates not yet listed, and where the next
        // one goes (0 before the first).
        var unlisted = [Int32](repeating: 0, count: inputCount)
        var ends = [Int32](repeating: 0, count: inputCount)
        let dense = isDense(stateCount: stateCount, inputCount: inputCount, pairs: pairTransitions.count)
        // Laid over each other's gaps, a sparse table's rows take a few cells per pair (the
        // generated machine of docs/performance.md: 245,000 for its 100,000 transitions): room
        // for four, so that the cells are not copied as they grow. Room never written costs no
        // memory.
        var packing = RowPacking(
            inputCount: inputCount, cellsAtLeast: dense ? stateCount * inputCount : min(stateCount * inputCount, 4 * pairTransitions.count))
        var rows: [Row] = []
        rows.reserveCapacity(stateCount)
        // The row being built: its cells, by input, in the order first named.
        var rowInputs: [Int] = []
        var rowCells: [Cell] = []
        for state in 0..<stateCount {
            let pairs = pairStarts[state]..<pairStarts[state + 1]
            for pair in pairs { unlisted[Int(pairInputs[pair])] += 1 }
            let isFinal = isFinal[state]
            rowInputs.removeAll(keepingCapacity: true)
            rowCells.removeAll(keepingCapacity: true)
            // Where the row first names a cell, the cell is settled and, unless it is taken
            // directly, room made for its candidates and -1, filled in file order.
            for pair in pairs {
                let transition = pairTransitions[pair]
                let input = Int(pairInputs[pair])
                if ends[input] == 0 {
                    let start = Int32(candidates.count)
                    rowInputs.append(input)
                    if isFinal {
                        rowCells.append(Cell(code: Self.finished, next: start))
                    } else if unlisted[input] == 1 {
                        let settled = settle(Int(transition), state)
                        if settled.code >= 0 {
                            rowCells.append(settled)
                            unlisted[input] = 0
                            continue
                        }
                        rowCells.append(Cell(code: settled.code, next: start))
                    } else {
                        rowCells.append(Cell(code: Self.search, next: start))
                    }
                    ends[input] = start
                    candidates.append(contentsOf: repeatElement(-1, count: Int(unlisted[input]) + 1))
                }
                candidates[Int(ends[input])] = transition
                ends[input] += 1
                unlisted[input] -= 1
                if unlisted[input] == 0 { ends[input] = 0 }
            }
            let outsideCode = isFinal ? Self.finished : Self.unhandled
            let start = dense ? packing.append(state: state, inputs: rowInputs, cells: rowCells, outsideCode: outsideCode)
                : packing.place(state: state, inputs: rowInputs, cells: rowCells)
            rows.append(Row(start: Int32(start), outsideCode: outsideCode))
        }
        return (packing.cells, rows, candidates, dense ? Int32(inputCount) : 0)
    }
}

/// Lays rows of a ``DispatchTable`` over each other's gaps: the cells so far, each free one in
/// no row, and always a row's width of them past the last row's start.
///
/// A row goes at the first start from the lowest free cell where all of its cells are free.
/// Where most cells are taken, a row of many cells may check thousands of starts before one
/// fits; once a row has checked ``cellsChecked`` cells in vain, the search for it and for every
/// later row goes on from where it has got to, and the free cells below stay free. That bounds
/// the time a row takes and leaves the table as full as rows like the last ones fit in it: the
/// generated machine of 10,000 states, 200 inputs and 100,000 transitions has 245,000 cells,
/// where its states times its inputs are 2,000,000, and one of 2,000 states, 300 inputs and
/// 6,000 transitions 10,500, where they are 600,000 (`StatecraftBenchmarks phases FILE`).
private struct RowPacking {
    let inputCount: Int
    private(set) var cells: [DispatchTable.Cell]
    /// The lowest free cell.
    private var lowestFree = 0
    /// Where searches begin: no free cell below it is used.
    private var floor = 0
    /// The cells a search checks in vain before it raises ``floor``: with 1,024, the generated
    /// machine's table is 215,000 cells, not 245,000, but placing its rows takes 100M
    /// instructions, not 38M.
    static let cellsChecked = 128

    static let free = DispatchTable.Cell(code: DispatchTable.unhandled, next: 0)

    init(inputCount: Int, cellsAtLeast: Int) {
        self.inputCount = inputCount
        cells = [DispatchTable.Cell](repeating: Self.free, count: inputCount)
        cells.reserveCapacity(cellsAtLeast + inputCount)
    }

    /// Places the row of `state` whose cells for `inputs` are `rowCells`, and gives where it starts.
    mutating func place(state: Int, inputs: [Int], cells rowCells: [DispatchTable.Cell]) -> Int {
        guard let lowestInput = inputs.min() else { return 0 }
        var start = max(0, max(lowestFree, floor) - lowestInput)
        var checks = Self.cellsChecked
        while !fits(inputs, at: start, checks: &checks) {
            start += 1
            if checks <= 0 {
                floor = start + lowestInput
                checks = Self.cellsChecked
            }
        }
        if start + inputCount > cells.count {
            cells.append(contentsOf: repeatElement(Self.free, count: start + inputCount - cells.count))
        }
        let owner = Int32(state)
        for (input, cell) in zip(inputs, rowCells) {
            cells[start + input] = DispatchTable.Cell(code: cell.code, next: cell.next, owner: owner)
        }
        while lowestFree < cells.count && cells[lowestFree].owner >= 0 { lowestFree += 1 }
        return start
    }

    /// Appends the row of `state` whole, a cell for every input (`outsideCode`'s where `inputs`
    /// has none), for a dense table, and gives where it starts: its state times the input count.
    mutating func append(state: Int, inputs: [Int], cells rowCells: [DispatchTable.Cell], outsideCode: Int32) -> Int {
        let owner = Int32(state)
        let start = state * inputCount
        if state > 0 { cells.append(contentsOf: repeatElement(Self.free, count: inputCount)) }
        for input in 0..<inputCount { cells[start + input] = DispatchTable.Cell(code: outsideCode, next: 0, owner: owner) }
        for (input, cell) in zip(inputs, rowCells) {
            cells[start + input] = DispatchTable.Cell(code: cell.code, next: cell.next, owner: owner)
        }
        return start
    }

    /// Whether every cell of `inputs` from `start` is free (beyond the cells so far, all are),
    /// counting down `checks` for each cell checked.
    private func fits(_ inputs: [Int], at start: Int, checks: inout Int) -> Bool {
        for input in inputs where start + input < cells.count {
            checks -= 1
            if cells[start + input].owner >= 0 { return false }
        }
        return true
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
