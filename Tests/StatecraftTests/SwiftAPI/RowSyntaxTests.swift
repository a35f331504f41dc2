import Statecraft
import TestSupport
import Testing

/// The row syntax: the overview's example, and rows chosen by `if` and `else`.
struct RowSyntaxTests {
    enum Door: MachineState { case closed, open, locked }

    enum Inputs {
        static let open = Input("open")
        static let close = Input("close")
        static let lock = Input("lock", taking: String.self)
        static let unlock = Input("unlock", taking: String.self)
    }

    struct Log: Sendable { var lockedBy: String? }

    @Test func theOverviewsDoorLocksAndStaysLocked() {
        let door = TypedStateMachine(initial: Door.closed, context: Log()) {
            Inputs.open  | .closed => .open
            Inputs.close | .open   => .closed
            Inputs.lock  | .closed => .locked | { $0.context.lockedBy = $0.argument }
        }
        #expect(door.send(Inputs.lock, "Ada").transition?.to == .locked)
        #expect(door.send(Inputs.open).error?.kind == .noTransition)
        #expect(door.context.lockedBy == "Ada")
    }

    func door(lockable: Bool, keyed: Bool) -> TypedStateMachine<Door, Log> {
        TypedStateMachine(initial: Door.closed, context: Log()) {
            Inputs.open | .closed => .open
            if lockable {
                Inputs.lock | .closed => .locked | { $0.context.lockedBy = $0.argument }
                if keyed {
                    Inputs.unlock.given(.locked).transition(to: .closed).when { $0.argument == $0.context.lockedBy }
                } else {
                    Inputs.unlock | .locked => .closed
                }
            }
        }
    }

    @Test func rowsMayBeChosenWithIfAndElse() {
        #expect(door(lockable: false, keyed: false).send(Inputs.lock, "Ada").error?.kind == .noTransition)

        let keyless = door(lockable: true, keyed: false)
        keyless.send(Inputs.lock, "Ada")
        #expect(keyless.send(Inputs.unlock, "Bob").transition?.to == .closed)

        let keyed = door(lockable: true, keyed: true)
        keyed.send(Inputs.lock, "Ada")
        #expect(keyed.send(Inputs.unlock, "Bob").error?.kind == .guardRejected)
        #expect(keyed.send(Inputs.unlock, "Ada").transition?.argument as? String == "Ada")
    }

    @Test func theLongFormLeavesFromTheStatesAPredicateMatches() {
        let door = TypedStateMachine(initial: Door.open, context: Log()) {
            Inputs.close.given(.matching { $0 != .closed }).transition(to: .closed)
            Inputs.lock | .closed => .locked
        }
        #expect(door.send(Inputs.close).transition?.from == .open)
        door.send(Inputs.lock, "Ada")
        #expect(door.send(Inputs.close).transition?.from == .locked)
        #expect(door.send(Inputs.close).error?.kind == .noTransition)
    }
}
