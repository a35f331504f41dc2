import ArgumentParser
import Statecraft

/// `smrun run --clock` and `smrun serve --clock`: which clock the machine's timers run on
/// (docs/cli.md, docs/serving.md).
enum ClockOption: String, ExpressibleByArgument, CaseIterable {
    /// Time stands still while inputs are processed; `@wait` and `--wait` move it.
    case virtual
    /// The wall clock: timers fire as real time passes, also while smrun waits for input.
    case real

    /// The clock a snapshot's times are on.
    var snapshotClock: MachineSnapshot.Clock {
        switch self {
        case .virtual: .virtual
        case .real: .real
        }
    }
}
