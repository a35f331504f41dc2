// Fuzzes smrun's input-script path (docs/cli.md): each line of the input goes through
// `ScriptLineParser` as a script line (`INPUT ARG`), as a `--send INPUT=ARG` value and as a JSON
// Lines line (`JSONInputLine`, `--input-format jsonl`), against a
// fixed machine with inputs of every argument type, and what parses is sent to a `TableRunner`.
// Besides crashes, it checks the parsed arguments against Swift's own number parsing and that a
// JSON-quoted string survives a round trip through `JSONText.quoted`, that a line the fast
// path takes (`parsePlain`) parses and runs as the parser and `send` would have it (its argument
// made only when its transition reads it, as smrun does), and that an
// internal input never parses as one a script may send.
import FuzzSupport
import SmrunCore
import Statecraft
import StatecraftYAML

/// The inputs of the example machines' scripts (with their argument types), and more of each type.
private let machineText = #"""
    machine: script-fuzz
    initial: a
    context: { passengers: 0, location: null, url: "", now: 0, ratio: 1.0, flag: false, name: "" }
    inputs:
      startEngine:
      driveAround:
      park:
      pickUpPassengers:
      passengersHaveEntered: int
      driveToLocation: string
      dropOffPassengers:
      noMapInput:
      noFailInput:
      fetch: string
      success: string
      failure: string
      cancel:
      goState1:
      goState2:
      goState3:
      red:
      yellow:
      green:
      initialize:
      logIn:
      logOut:
      setUpgradePending: bool
      setCanLogIn: bool
      sync:
      syncFinished: bool
      tick: int
      scale: double
      note: string
      größe: int
      名前: string
      finished: { internal: true }
      progress: { arg: int, internal: true }
      withdraw:
    states: [a, b, done]
    effects:
      board: { set: { passengers: passengers + arg } }
      drive: { set: { location: arg } }
      store: { set: { url: url + arg } }
      wait: { set: { now: now * 2 + arg } }
      rescale: { set: { ratio: ratio / arg } }
      remember: { set: { flag: arg || flag } }
      rename: { set: { name: arg } }
      echo: { send: [{ input: tick, arg: now / passengers }] }
      report: { send: [finished, { input: progress, arg: passengers }] }
      later: { send: [{ input: tick, arg: passengers, delay: 250ms, id: soon }, { input: red, delay: 0s }] }
      never: { cancel: soon }
    transitions:
      - after: 1.5s
        from: b
        to: a
        when: passengers < 3
      - after: 0s
        from: done
        to: a
      - dropOffPassengers | * | later
      - driveAround | * | never
      - green | a => b
      - red | b => a
      - cancel | a => done
      - passengersHaveEntered | * | board
      - input: driveToLocation
        from: "*"
        when: passengers > 0 && arg != ""
        effects: [drive]
      - fetch | * | store
      - success | * | store
      - failure | b | store
      - tick | * | wait
      - scale | * | rescale
      - setUpgradePending | * | remember
      - setCanLogIn | a | remember
      - syncFinished | * => a
      - 名前 | * | rename
      - größe | * | board
      - note | *
      - sync | * | echo
      - startEngine | * => b
      - park | b => a
      - noFailInput | *
      - logOut | * | report
      - finished | b => a
      - progress | *
      - input: withdraw
        from: b
        reject: refused in b
      - input: withdraw
        from: { not: b }
        when: passengers > 2
        reject: too many passengers
      - withdraw | a
    """#

private let machine: CompiledMachine = {
    let loaded = YAMLFile.load(bytes: Array(machineText.utf8), defaultName: "script-fuzz")
    guard let machine = loaded.machine else { fatalError("the fuzz machine does not load: \(loaded.diagnostics)") }
    return machine
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScriptLine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    var parser = ScriptLineParser(machine: machine)
    var runner = TableRunner(machine, stepLimit: 20)
    var sink = DiscardingSink()
    runner.start(into: &sink)
    var lineStart = 0
    while lineStart <= size {
        let lineEnd = input[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? size
        let line = UnsafeRawBufferPointer(rebasing: input[lineStart..<lineEnd])
        lineStart = lineEnd + 1

        // As a script line.
        let parsed = parser.parse(line: line)
        if let plain = parser.parsePlain(line: line) { checkPlain(plain, line: line, parsed: parsed, runner: runner) }
        process(parsed, &runner, &sink, describe: true)

        // As `--send NAME=ARG`: the name before the first `=`, the argument after it.
        let separator = line.firstIndex(of: UInt8(ascii: "="))
        let name = UnsafeRawBufferPointer(rebasing: line[..<(separator ?? line.count)])
        let argument = separator.map { UnsafeRawBufferPointer(rebasing: line[($0 + 1)...]) }
        let sent = parser.parse(name: name, argument: argument)
        checkSend(sent, name: name, argument: argument, &parser)
        process(sent, &runner, &sink, describe: false)

        // As a JSON Lines line.
        switch JSONInputLine(line) {
        case .blank:
            break
        case .input(let name, let argument):
            name.withUnsafeBytes { process(parser.parse(name: $0, jsonArgument: argument), &runner, &sink, describe: false) }
        case .wait(let duration):
            duration.withUnsafeBytes { process(ScriptLineParser.parseWait($0), &runner, &sink, describe: false) }
        case .bad(_, let problem):
            precondition(!problem.isEmpty, "a bad JSON line without a problem")
        }
    }
    return 0
}

/// What smrun's run command does with a parsed line, minus the printing; `describe` builds the
/// message of a rejected line (the did-you-mean search is the slowest part, so only once a line).
private func process(_ parsed: ScriptLineParser.Parsed, _ runner: inout TableRunner, _ sink: inout DiscardingSink, describe: Bool) {
    switch parsed {
    case .skip:
        break
    case .input(let input, let argument):
        precondition(!machine.inputIsInternal[input], "an internal input sent from a script")
        if let type = machine.argumentTypes[input] {
            precondition(argument.value.type == type, "argument of type \(argument.value.type) for a \(type) input")
        } else {
            precondition(argument.isNone, "an argument for an input that takes none")
        }
        runner.send(input, argument: argument.value, into: &sink)
    case .unknownInput(let name):
        precondition(
            !machine.inputNames.indices.contains { !machine.inputIsInternal[$0] && machine.inputNames[$0].utf8.elementsEqual(name) },
            "a known input reported unknown")
        guard describe else { return }
        _ = machine.message(for: runner.rejection(.unknownInput, input: -1), inputName: String(decoding: name, as: UTF8.self))
    case .undeclaredEvent:
        preconditionFailure("an undeclared event for a machine file, whose inputs are exact")
    case .badArgument(let input, let problem):
        guard describe else { return }
        _ = machine.message(for: runner.rejection(.badArgument, input: input)) + problem
    case .wait(let milliseconds):
        precondition((0...Delay.maximumMilliseconds).contains(milliseconds), "a wait of \(milliseconds) ms")
        let before = runner.time
        runner.advance(to: before + milliseconds, into: &sink)
        precondition(runner.time == before + milliseconds, "the clock did not move to the wait's end")
        if let due = runner.nextTimerDue() { precondition(due > runner.time, "a due timer left pending after a wait") }
    case .badWait(let problem):
        precondition(!problem.isEmpty, "a bad wait without a problem")
    }
}

/// A plain line (smrun's fast path) must parse as the parser parses it, be printed as written,
/// and, when its cell is settled without a search, go where `send` goes.
private func checkPlain(_ plain: ScriptLineParser.Plain, line: UnsafeRawBufferPointer, parsed: ScriptLineParser.Parsed, runner: TableRunner) {
    guard case .input(let input, let argument) = parsed else { preconditionFailure("a plain line the parser refuses") }
    precondition(plain.input == input && plain.value == argument.value, "a plain line parsed otherwise")
    precondition(plain.argument.raw.map { Array($0) } == argument.raw.map { Array($0) }, "a plain line's raw argument differs")
    var shown = Array(machine.inputNames[input].utf8)
    switch plain.value {
    case .null: break
    case .string where plain.kind == .unreadString: shown += [UInt8(ascii: " ")] + Array(plain.quoted)
    case let value: shown += Array(" \(value.description)".utf8)
    }
    precondition(line.elementsEqual(shown), "a plain line is not printed as written")
    var direct = runner
    var sent = runner
    var sink = RecordingSink()
    // As smrun sends it: the argument made only for a transition that reads it.
    guard let outcome = direct.sendSettled(input, argument: { plain.value }) else { return }
    sent.send(input, argument: plain.value, into: &sink)
    precondition(sink.outcomes == [outcome], "sendSettled and send disagree")
    precondition(direct.state == sent.state && direct.context == sent.context, "sendSettled and send end apart")
}

/// Compares what the parser made of `--send NAME=ARG` with what Swift makes of ARG.
private func checkSend(
    _ parsed: ScriptLineParser.Parsed, name: UnsafeRawBufferPointer, argument: UnsafeRawBufferPointer?,
    _ parser: inout ScriptLineParser
) {
    let input: Int
    let value: ScriptArgument?
    switch parsed {
    case .skip: preconditionFailure("--send never skips")
    case .unknownInput: return
    case .input(let id, let argument): (input, value) = (id, argument)
    case .badArgument(let id, _): (input, value) = (id, nil)
    case .wait, .badWait: preconditionFailure("--send parsed as a directive")
    case .undeclaredEvent: preconditionFailure("an undeclared event for a machine file, whose inputs are exact")
    }
    precondition(machine.inputNames[input].utf8.elementsEqual(name), "'\(machine.inputNames[input])' parsed from another name")
    guard let type = machine.argumentTypes[input] else {
        precondition((value != nil) == (argument == nil), "an input without argument: accepted iff none given")
        return
    }
    guard let argument else {
        precondition(value == nil, "a typed input accepted without an argument")
        return
    }
    let text = String(decoding: argument, as: UTF8.self)
    switch type {
    case .int:
        precondition(value?.value == Int(text).map(Value.int), "int argument '\(text)': parsed \(String(describing: value?.value))")
    case .double:
        if case .double(let d)? = value?.value { precondition(Double(text) == d, "double argument '\(text)' parsed as \(d)") }
    case .bool:
        precondition(value?.value == ["true": Value.bool(true), "false": .bool(false)][text], "bool argument '\(text)'")
    case .string:
        guard let value, case .string(let s) = value.value else { return }
        if value.raw != nil {
            precondition(!machine.argumentIsRead[input] && s.isEmpty, "a raw string argument for an input that reads it")
        } else if argument.first == UInt8(ascii: "\"") {
            var quoted = Array(JSONText.quoted(s).utf8)
            quoted.withUnsafeMutableBytes { bytes in
                guard case .input(_, let again) = parser.parse(name: name, argument: UnsafeRawBufferPointer(bytes)) else {
                    preconditionFailure("JSONText.quoted(\(s.debugDescription)) is not accepted back")
                }
                precondition(again.value == .string(s), "\(s.debugDescription) does not survive a JSON round trip")
            }
        } else {
            precondition(argument.elementsEqual(s.utf8), "unquoted string argument changed: \(s.debugDescription)")
        }
    case .null, .list, .record:
        preconditionFailure("no input takes a \(type) from a script")
    }
}

private struct RecordingSink: ResultSink {
    var outcomes: [TransitionResult.Outcome] = []

    mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) { outcomes.append(result.outcome) }
}

private struct DiscardingSink: ResultSink {
    mutating func receive(_ result: TransitionResult, from runner: inout TableRunner) {
        if !result.isAccepted { _ = runner.machine.message(for: result, stepLimit: runner.stepLimit) }
    }
}

#if !FUZZING
    @main enum Main {
        static func main() { Reproducer.main("FuzzScriptLine", fuzzScriptLine) }
    }
#endif
