import Testing

@testable import Statecraft

/// ``SnapshotCodec/migrate(_:)``: a snapshot of an earlier definition of a machine carried over
/// to the current one, keeping what still fits.
struct SnapshotMigrationTests {
    /// A machine named `name` with `states` and `variables`.
    func machine(name: String = "m", states: [String] = ["idle", "busy"], variables: [(String, Value)]) throws -> CompiledMachine {
        try compile(
            MachineDefinition(
                name: name, initial: Named(states[0]), onUnhandled: .reject,
                context: variables.map { ContextVariable(Named($0.0), $0.1) },
                inputs: [InputDeclaration("go")],
                states: states.map { StateDeclaration(Named($0)) },
                effects: [],
                transitions: [TransitionDefinition(Named("go"), from: .states([Named(states[0])]), to: Named(states[1]), when: nil, effects: [])]))
    }

    @Test func keepsTheStateAndTheValuesWhoseNameAndTypeStillExist() throws {
        let old = try machine(variables: [("count", .int(0)), ("name", .string("")), ("gone", .bool(false)), ("ratio", .double(0))])
        let saved = SnapshotCodec(old).encode(state: 1, context: [.int(7), .string("x"), .bool(true), .double(2.5)])
        let new = try machine(variables: [("count", .int(0)), ("name", .int(3)), ("ratio", .double(1)), ("added", .string("new"))])
        let codec = SnapshotCodec(new)
        #expect(throws: SnapshotError.self) { try codec.decode(saved) }

        let migration = try codec.migrate(saved)
        #expect(!migration.wasCurrent)
        #expect(migration.snapshot.state == 1)
        #expect(migration.snapshot.context == [.int(7), .int(3), .double(2.5), .string("new")])
        #expect(migration.snapshot.fingerprint == codec.fingerprint)
        #expect(migration.kept == ["count", "ratio"])
        #expect(migration.dropped == [
            .init(variable: "name", reason: #"now of type int, and the saved value is "x""#),
            .init(variable: "gone", reason: "no longer a variable"),
        ])
        #expect(migration.initialized == ["name", "added"])
        // What it yields is a snapshot of the new definition.
        #expect(try codec.decode(codec.encode(migration.snapshot)) == migration.snapshot)
    }

    @Test func anIntFitsAVariableThatIsNowADoubleAndNotTheOtherWay() throws {
        let old = try machine(variables: [("ratio", .int(0)), ("count", .double(0))])
        let saved = SnapshotCodec(old).encode(state: 0, context: [.int(3), .double(2.5)])
        let migration = try SnapshotCodec(try machine(variables: [("ratio", .double(0)), ("count", .int(0))])).migrate(saved)
        #expect(migration.snapshot.context == [.double(3), .int(0)])
        #expect(migration.kept == ["ratio"])
        #expect(migration.dropped == [.init(variable: "count", reason: "now of type int, and the saved value is 2.5")])
    }

    @Test func aCurrentSnapshotIsKeptAsItIs() throws {
        let current = try machine(variables: [("count", .int(0))])
        let codec = SnapshotCodec(current)
        let migration = try codec.migrate(codec.encode(state: 1, context: [.int(4)]))
        #expect(migration.wasCurrent)
        #expect(migration.snapshot == (try codec.decode(codec.encode(state: 1, context: [.int(4)]))))
        #expect(migration.dropped.isEmpty && migration.initialized.isEmpty)
    }

    @Test func refusesWhenTheSavedStateIsGoneNamingIt() throws {
        let old = try machine(variables: [])
        let saved = SnapshotCodec(old).encode(state: 1, context: [])
        let new = try machine(states: ["idle", "working"], variables: [])
        #expect {
            try SnapshotCodec(new).migrate(saved)
        } throws: { error in
            let error = error as? SnapshotError
            return error?.kind == .unknownState && error?.message.contains(#"the saved state "busy" is no longer a state of machine 'm'"#) == true
        }
    }

    @Test func refusesAnotherMachineAndWhatIsNotASnapshot() throws {
        let other = try machine(name: "other", variables: [("x", .int(1))])
        let saved = SnapshotCodec(other).encode(state: 0, context: [.int(1)])
        let codec = SnapshotCodec(try machine(variables: []))
        #expect { try codec.migrate(saved) } throws: { ($0 as? SnapshotError)?.kind == .differentMachine }
        #expect { try codec.migrate(Array("[]".utf8)) } throws: { ($0 as? SnapshotError)?.kind == .notASnapshot }
    }
}
