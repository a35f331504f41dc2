import Testing

@testable import Statecraft

/// A pending delayed send in a snapshot (``SnapshotCodec``): saved by its input, the effect
/// that sent it and its id, and read back as the timer it was, whether its delay is fixed or
/// computed when the effect ran (`delay_expr`); refused when the effect named has no such send.
struct DelayedSendSnapshotTests {
    /// `schedule N` runs `later`, which sends `ring` as `send` says; `now` sends `ring` at
    /// once; `ring` counts in `rings`.
    func ledger(_ send: EffectDefinition.Send) throws -> CompiledMachine {
        try compile(
            MachineDefinition(
                name: "ledger", initial: "open", context: [ContextVariable("rings", .int(0))],
                inputs: [InputDeclaration("schedule", argumentType: .int), InputDeclaration("ring"), InputDeclaration("poke")],
                states: [StateDeclaration("open")],
                effects: [
                    EffectDefinition("later", sends: [send]),
                    EffectDefinition("now", sends: [.init("ring")]),
                    EffectDefinition("ring", assignments: [.init("rings", "rings + 1")]),
                ],
                transitions: [
                    TransitionDefinition("schedule", from: .states(["open"]), to: nil, effects: ["later"]),
                    TransitionDefinition("poke", from: .states(["open"]), to: nil, effects: ["now"]),
                    TransitionDefinition("ring", from: .states(["open"]), to: nil, effects: ["ring"]),
                ]))
    }

    /// The saved document of `ledger(send)` after `schedule 1500`.
    func scheduled(_ machine: CompiledMachine) -> String {
        var runner = TableRunner(machine)
        var recorder = Recorder()
        runner.send("schedule", .int(1500), into: &recorder)
        let codec = SnapshotCodec(machine)
        return String(decoding: codec.encode(codec.snapshot(of: runner)), as: UTF8.self)
    }

    @Test(arguments: [
        (EffectDefinition.Send("ring", delay: Delay(milliseconds: 1500, text: "1500ms")), #"{"due": 1500, "input": "ring", "sent_by": "later"}"#),
        (EffectDefinition.Send("ring", delayExpression: "arg"), #"{"due": 1500, "input": "ring", "sent_by": "later"}"#),
        (EffectDefinition.Send("ring", delayExpression: "'1.5s'"), #"{"due": 1500, "input": "ring", "sent_by": "later"}"#),
        (EffectDefinition.Send("ring", id: "bell", delayExpression: "arg"),
         #"{"due": 1500, "input": "ring", "sent_by": "later", "timer": "bell"}"#),
    ])
    func aPendingDelayedSendIsReadBackAndFiresWhenDue(send: EffectDefinition.Send, timer: String) throws {
        let machine = try ledger(send)
        let text = scheduled(machine)
        #expect(text.contains(timer), "\(text)")
        var resumed = TableRunner(machine)
        resumed.restore(try SnapshotCodec(machine).decode(Array(text.utf8)))
        #expect(resumed.pendingTimerCount == 1)
        var fired = Recorder()
        resumed.advance(to: 1499, into: &fired)
        #expect(fired.entries.isEmpty)
        resumed.advance(to: 1500, into: &fired)
        #expect(fired.entries.map(\.effects) == [["ring"]])
        #expect(resumed.context == [.int(1)])
    }

    @Test(arguments: [
        (#""sent_by": "later""#, #""sent_by": "ring""#, "was sent by effect 'ring', which has no delayed send of 'ring' with id 'bell'"),
        (#""sent_by": "later""#, #""sent_by": "now""#, "was sent by effect 'now', which has no delayed send of 'ring' with id 'bell'"),
        (#", "timer": "bell""#, "", "was sent by effect 'later', which has no delayed send of 'ring' without an id"),
    ])
    func aTimerNamingASendTheEffectDoesNotHaveIsRefused(saved: String, edited: String, reason: String) throws {
        let machine = try ledger(.init("ring", id: "bell", delayExpression: "arg"))
        let text = scheduled(machine)
        #expect(text.contains(saved), "\(text)")
        let bad = text.replacing(saved, with: edited)
        #expect(throws: SnapshotError.self) { try SnapshotCodec(machine).decode(Array(bad.utf8)) }
        do {
            _ = try SnapshotCodec(machine).decode(Array(bad.utf8))
        } catch {
            #expect(error.kind == .invalidTimer)
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }
}
