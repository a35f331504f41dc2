// Fuzzes the SCXML reader (libxml2's SAX2 parser -> elements -> definition -> compiled
// machine) and, when the input is a valid machine, both writers of `smrun export`: the machine
// written as YAML and as SCXML must load again without errors, and it is run on every input.
import FuzzSupport
import Statecraft
import StatecraftSCXML
import StatecraftYAML

/// The default limits with a smaller node budget, as for the machine-file target.
private let limits = LoadLimits(maximumBytes: 1 << 20, maximumDepth: 256, maximumNodes: 200_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSCXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let loaded = SCXMLFile.load(bytes: bytes, defaultName: "fuzz", limits: limits)
    // XML breaks lines at LF, CR and CR LF only.
    let lines = bytes.reduce(1) { $0 + ([0x0A, 0x0D].contains($1) ? 1 : 0) }
    for diagnostic in loaded.diagnostics {
        let position = diagnostic.position ?? .unknown
        precondition(position == .unknown || (1...lines + 1).contains(position.line), "diagnostic outside the document: \(diagnostic)")
        _ = diagnostic.description
    }
    precondition(loaded.diagnostics.hasErrors == (loaded.machine == nil), "a machine must load exactly when there are no errors")
    guard let machine = loaded.machine, let definition = loaded.definition else { return 0 }

    let yaml = YAMLFile.load(bytes: Array(MachineFileWriter.text(of: definition).utf8), defaultName: "fuzz")
    precondition(yaml.machine != nil, "the machine written as YAML does not load: \(yaml.diagnostics)")
    if let scxml = try? SCXMLWriter.text(of: definition) {
        let again = SCXMLFile.load(bytes: Array(scxml.utf8), defaultName: "fuzz")
        precondition(again.machine != nil, "the machine written as SCXML does not load: \(again.diagnostics)")
    }

    if machine.chart != nil {
        var runner = ChartRunner(machine, stepLimit: 50)
        var sink = ChartMessages()
        runner.start(into: &sink)
        for input in 0..<machine.inputCount where machine.argumentTypes[input] == nil { runner.send(input, argument: .null, into: &sink) }
    } else {
        var runner = TableRunner(machine, stepLimit: 50)
        var sink = FlatMessages()
        runner.start(into: &sink)
        for input in 0..<machine.inputCount where machine.argumentTypes[input] == nil { runner.send(input, argument: .null, into: &sink) }
    }
    return 0
}

/// Words every rejection, as smrun would print it.
private struct ChartMessages: ResultSink {
    mutating func receive(_ result: TransitionResult, from runner: inout ChartRunner) {
        if !result.isAccepted { _ = runner.message(for: result) }
    }
}

private struct FlatMessages: ResultSink {
    mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) {
        if !result.isAccepted { _ = runner.machine.message(for: result, stepLimit: runner.stepLimit) }
    }
}

#if !FUZZING
    @main enum Main {
        static func main() { Reproducer.main("FuzzSCXML", fuzzSCXML) }
    }
#endif
