/// An ``OwnedStateMachine``'s own copy of its dispatch table, laid out for its direct path: an
/// input's column is found from its interning serial with one load, and the cell of that column
/// and the current state with one more, which holds the state entered itself and, for a row
/// with effects, a reference to them.
///
/// Its memory is the machine's alone (the machine cannot be copied) and is freed by the
/// machine's `deinit`, so the hot path reads it through plain pointers, unchecked: every index
/// is in bounds by construction (see ``cell(column:state:)``).
@usableFromInline
struct OwnedDispatchTable<State: MachineState, Context: Sendable>: @unchecked Sendable {
    /// What one state and input lead to.
    @usableFromInline
    struct Cell {
        /// For an input taken directly (one unguarded row to a fixed state, as the engine's
        /// table takes it): the engine's id of the state after it when the row has no effects,
        /// ``withEffects(entering:)`` of it when it has. ``OwnedDispatchTable/unhandled`` for a
        /// cell without a row, ``OwnedDispatchTable/elsewhere`` for every other cell (a builder,
        /// guards, several rows, a final state). Only a direct cell without effects is not
        /// negative, so that the direct path tests one sign.
        @usableFromInline let next: Int32
        /// For a cell taken directly, the state entered; a filler (the initial state) otherwise.
        /// Beside ``next``: a cell of a state that fits in four bytes takes 16.
        @usableFromInline let target: State
        /// For a cell taken directly whose row has effects, the effects, owned by the machine's
        /// rows; nil otherwise.
        @usableFromInline let effects: Unmanaged<ErasedRow<State, Context>.Effects>?

        /// The ``next`` of a direct cell with effects, entering the state of id `state`.
        @inlinable
        static func withEffects(entering state: Int32) -> Int32 { -3 &- state }

        /// The id of the state a direct cell with effects enters.
        @inlinable
        var stateEnteredWithEffects: Int { Int(-3 &- next) }
    }

    /// The ``Cell/next`` of a cell without a row: the input is refused or ignored.
    @usableFromInline static var unhandled: Int32 { -1 }
    /// The ``Cell/next`` of a cell that the machine settles through its rows or the runner.
    @usableFromInline static var elsewhere: Int32 { -2 }

    /// Per input serial (``InputKey/serial``), where the input's column of ``cells`` starts; then
    /// one more, the column of every later serial (the engine's unmapped input, which has no row).
    @usableFromInline let columns: UnsafeMutablePointer<UnsafePointer<Cell>>
    /// One past the highest serial of the machine's inputs: the index of the unmapped column.
    @usableFromInline let serialCount: Int
    /// Column by column: input id times state count, plus state.
    let cells: UnsafeMutablePointer<Cell>
    let cellCount: Int

    /// The table of `machine`, whose inputs have `inputs`' ids and whose transitions are `rows`.
    init(_ machine: CompiledMachine, inputs: InputTable, rows: RowActions<State, Context>, filler: State) {
        let states = machine.stateCount
        serialCount = inputs.ids.count
        cellCount = machine.inputCount * states
        cells = .allocate(capacity: max(cellCount, 1))
        columns = .allocate(capacity: serialCount + 1)
        for serial in 0..<serialCount { (columns + serial).initialize(to: UnsafePointer(cells + inputs.ids[serial] * states)) }
        (columns + serialCount).initialize(to: UnsafePointer(cells + inputs.unmapped * states))
        for input in 0..<machine.inputCount {
            for state in 0..<states {
                let cell = machine.table.cell(state: state, input: input)
                // A typed machine's transitions run no engine copies, so a direct cell's `next`
                // is the state itself, never its complement.
                let action = cell.code >= 0 && cell.next >= 0 ? rows.actions[Int(cell.code)] : nil
                let entry: Cell
                if let action, let target = action.target {
                    let next = action.effects == nil ? cell.next : Cell.withEffects(entering: cell.next)
                    entry = Cell(next: next, target: target, effects: action.effects)
                } else {
                    let next = cell.code == DispatchTable.unhandled ? Self.unhandled : Self.elsewhere
                    entry = Cell(next: next, target: filler, effects: nil)
                }
                (cells + input * states + state).initialize(to: entry)
            }
        }
    }

    /// The column of `input`: the unmapped input's for an input the machine was not built with.
    @inlinable @inline(__always)
    func column<Argument>(of input: Input<Argument>) -> UnsafePointer<Cell> {
        // Serials are never negative; a later one than the table knows is the unmapped column's,
        // chosen without a branch.
        columns[Swift.min(input.key.serial, serialCount)]
    }

    /// The cell of `column` in `state`. In bounds: a column starts at an input id (below the
    /// input count) times the state count, and the runner's state is a state id (below the state
    /// count).
    @inlinable @inline(__always)
    func cell(column: UnsafePointer<Cell>, state: Int) -> UnsafePointer<Cell> {
        column + state
    }

    /// Frees the table's memory; the machine's `deinit` calls it once.
    func free() {
        columns.deinitialize(count: serialCount + 1)
        columns.deallocate()
        cells.deinitialize(count: cellCount)
        cells.deallocate()
    }
}
