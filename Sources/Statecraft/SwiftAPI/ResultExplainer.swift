/// Words a runner's results as `smrun` does, for a machine's rejections: a reference to the
/// compiled machine, which each rejection keeps without copying the machine's names.
@usableFromInline
final class ResultExplainer: Sendable {
    let machine: CompiledMachine
    let stepLimit: Int

    init(_ machine: CompiledMachine, stepLimit: Int) {
        self.machine = machine
        self.stepLimit = stepLimit
    }

    /// The message for `result`, about the input named `inputName`.
    func message(for result: TransitionResult, inputName: String) -> String {
        machine.message(for: result, inputName: inputName, stepLimit: stepLimit)
    }
}
