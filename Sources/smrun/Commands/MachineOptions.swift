import ArgumentParser
import Statecraft

/// How the subcommands other than `run` read a machine file: ``LimitOptions``, and
/// `--input-format yaml|scxml`, the old spelling of `--machine-format`, kept as a hidden alias
/// (`run` takes it too, beside its input lines' formats, with its own `--input-format`).
struct MachineOptions: ParsableArguments {
    @OptionGroup var bounds: LimitOptions

    @Option(name: .customLong("input-format"), help: .hidden)
    var oldMachineFormat: MachineFormat?

    var limits: LoadLimits { bounds.limits }

    func validate() throws {
        try bounds.checkAgreement(alias: oldMachineFormat)
    }

    /// The machine file's format given, in either spelling; `nil` when none is.
    var machineFormat: MachineFormat? { bounds.machineFormat(alias: oldMachineFormat) }

    /// The format of the machine file at `path`: the one given, or the one its extension names.
    func format(of path: String) -> MachineFormat {
        bounds.machineFormat(alias: oldMachineFormat) ?? MachineFormat.of(path: path)
    }

    /// Loads the machine at `path` in its format, within the bounds.
    func load(_ path: String) -> LoadResult {
        MachineLoader.load(path, format: bounds.machineFormat(alias: oldMachineFormat), limits: limits)
    }
}
