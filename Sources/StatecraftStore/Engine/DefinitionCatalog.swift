import Statecraft
import StatecraftSCXML
import StatecraftYAML
import Synchronization

/// The definitions instances run on: each served machine's current one (its file as it is
/// now), and every older one an instance was created on, compiled from the source the store
/// keeps, once.
package final class DefinitionCatalog: Sendable {
    package let store: any InstanceStore
    /// The current definitions, in the order the machines were named.
    package let current: [MachineRuntime]
    private let byFingerprint: Mutex<[String: MachineRuntime]>

    /// Keeps the current definitions' sources in the store.
    package init(store: any InstanceStore, current: [MachineRuntime]) async throws {
        self.store = store
        self.current = current
        byFingerprint = Mutex(Dictionary(current.map { ($0.fingerprint, $0) }, uniquingKeysWith: { first, _ in first }))
        for runtime in current { try await store.saveDefinition(runtime.definition) }
    }

    /// The current definition of machine `name`.
    package func current(_ name: String) -> MachineRuntime? {
        current.first { $0.machine.name == name }
    }

    /// The definition with `fingerprint` if it is compiled already.
    package func loaded(fingerprint: String) -> MachineRuntime? {
        byFingerprint.withLock { $0[fingerprint] }
    }

    /// The definition with `fingerprint`, compiled from the store's copy the first time.
    package func runtime(fingerprint: String) async throws -> MachineRuntime {
        if let runtime = byFingerprint.withLock({ $0[fingerprint] }) { return runtime }
        guard let definition = try await store.definition(fingerprint: fingerprint) else {
            throw StoreError.unreadable("the store has no definition \(fingerprint)")
        }
        let runtime = try Self.compile(definition)
        byFingerprint.withLock { $0[fingerprint] = runtime }
        return runtime
    }

    /// Compiles a stored definition.
    package static func compile(_ definition: StoredDefinition) throws -> MachineRuntime {
        let loaded =
            switch definition.format {
            case .yaml: YAMLFile.load(bytes: definition.source, defaultName: definition.machine)
            case .scxml: SCXMLFile.load(bytes: definition.source, defaultName: definition.machine)
            }
        guard let machine = loaded.machine else {
            throw StoreError.unreadable("the stored definition \(definition.fingerprint) of '\(definition.machine)' no longer compiles")
        }
        return MachineRuntime(machine: machine, definition: definition, written: loaded.definition)
    }

    /// A served file's definition, from its source.
    package static func runtime(source: [UInt8], format: StoredDefinition.Format, defaultName: String) -> (MachineRuntime?, LoadResult) {
        let loaded =
            switch format {
            case .yaml: YAMLFile.load(bytes: source, defaultName: defaultName)
            case .scxml: SCXMLFile.load(bytes: source, defaultName: defaultName)
            }
        guard let machine = loaded.machine else { return (nil, loaded) }
        let codec = SnapshotCodec(machine)
        let definition = StoredDefinition(
            fingerprint: codec.fingerprint.text, machine: machine.name, format: format, source: source, stateNames: machine.stateNames)
        return (MachineRuntime(machine: machine, definition: definition, written: loaded.definition), loaded)
    }
}
