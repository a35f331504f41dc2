/// An ``OwnedStateMachine``'s own copy of its dispatch table, laid out for its direct path: an
/// input's column is found from its interning serial with one load, and the cell of that column
/// and the current state with one more, which holds the state entered itself.
///
/// Its memory is the machine's alone (the machine cannot be copied) and is freed by the
/// machine's `deinit`, so the hot path reads it through plain pointers, unchecked: every index
/// is in bounds by construction (see ``cell(column:state:)``).
@usableFromInline
struct OwnedDispatchTable<State: MachineState>: @unchecked Sendable {
    /// What one state and input lead to.
    @usableFromInline
    struct Cell {
        /// For an input taken directly with nothing to run (one unguarded row without effects, to
        /// a fixed state, as the engine's table takes it): the engine's id of the state after it;
        /// ``OwnedDispatchTable/elsewhere`` for every other cell.
        @usableFromInline let next: Int32
        /// For a cell taken directly, the state entered; a filler (the initial state) otherwise.
        @usableFromInline let target: State
    }

    /// The ``Cell/next`` of a cell that the machine settles out of line: effects or a builder
    /// to run, guards, several rows, no row, a final state.
    @usableFromInline static var elsewhere: Int32 { -1 }

    /// Per input serial (``InputKey/serial``), the input's column: its id times the state count.
    @usableFromInline let columns: UnsafeMutablePointer<Int>
    /// How many serials ``columns`` holds: one past the highest serial of the machine's inputs.
    @usableFromInline let serialCount: Int
    /// The column of every input the machine has no row for (the engine's unmapped input).
    @usableFromInline let unmappedColumn: Int
    /// Column by column: input id times state count, plus state.
    @usableFromInline let cells: UnsafeMutablePointer<Cell>
    let cellCount: Int

    /// The table of `machine`, whose inputs have `inputs`' ids and whose transitions are the
    /// rows with `targets` (nil for a row that builds its state) and `hasEffects`.
    init(_ machine: CompiledMachine, inputs: InputTable, targets: [State?], hasEffects: [Bool], filler: State) {
        let states = machine.stateCount
        serialCount = inputs.ids.count
        columns = .allocate(capacity: max(serialCount, 1))
        for serial in 0..<serialCount { (columns + serial).initialize(to: inputs.ids[serial] * states) }
        unmappedColumn = inputs.unmapped * states
        cellCount = machine.inputCount * states
        cells = .allocate(capacity: max(cellCount, 1))
        for input in 0..<machine.inputCount {
            for state in 0..<states {
                let cell = machine.table.cells[state * machine.inputCount + input]
                let transition = Int(cell.code)
                // A typed machine's transitions run no engine copies, so a direct cell's `next`
                // is the state itself, never its complement.
                let isDirect = transition >= 0 && !hasEffects[transition] && targets[transition] != nil && cell.next >= 0
                let entry =
                    isDirect
                    ? Cell(next: cell.next, target: targets[transition]!)
                    : Cell(next: Self.elsewhere, target: filler)
                (cells + input * states + state).initialize(to: entry)
            }
        }
    }

    /// The column of `input`: the unmapped input's for an input the machine was not built with.
    @inlinable @inline(__always)
    func column<Argument>(of input: Input<Argument>) -> Int {
        let serial = input.key.serial
        // Serials are never negative: one unsigned comparison bounds both ends.
        return UInt(bitPattern: serial) < UInt(bitPattern: serialCount) ? columns[serial] : unmappedColumn
    }

    /// The cell of `column` in `state`. In bounds: a column is an input id (below the input
    /// count) times the state count, and the runner's state is a state id (below the state count).
    @inlinable @inline(__always)
    func cell(column: Int, state: Int) -> Cell {
        cells[column &+ state]
    }

    /// Frees the table's memory; the machine's `deinit` calls it once.
    func free() {
        columns.deinitialize(count: serialCount)
        columns.deallocate()
        cells.deinitialize(count: cellCount)
        cells.deallocate()
    }
}
