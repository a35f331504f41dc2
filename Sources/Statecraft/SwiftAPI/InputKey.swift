#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What identifies an ``Input``: its name and argument type, interned once per process (as
/// selectors are), so that an input is one word that copies without reference counting,
/// compares by address, and finds its id in a machine's ``InputTable`` with one array load.
///
/// Identities live as long as the process: a program declares a fixed set of inputs, and making
/// the same input again (`Input("start")` anywhere) finds the identity made the first time.
@usableFromInline
struct InputKey: Hashable, Sendable {
    @usableFromInline unowned(unsafe) let identity: InputIdentity

    /// The identity of the input named `name` whose argument is of `argumentType`.
    init(name: String, argumentType: Any.Type) {
        identity = InputIdentity.registry.identity(name: name, argumentType: ObjectIdentifier(argumentType))
    }

    /// The input's name.
    var name: String { identity.name }

    /// The identity's place in interning order: 0 for the first input made in the process.
    @inlinable
    var serial: Int { identity.serial }

    @inlinable
    static func == (left: InputKey, right: InputKey) -> Bool { left.identity === right.identity }

    @inlinable
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(identity)) }
}

/// The interned name and argument type of an input; see ``InputKey``.
@usableFromInline
final class InputIdentity: Sendable {
    let name: String
    let argumentType: ObjectIdentifier
    @usableFromInline let serial: Int

    private init(name: String, argumentType: ObjectIdentifier, serial: Int) {
        self.name = name
        self.argumentType = argumentType
        self.serial = serial
    }

    /// Every identity made in this process; it keeps them alive.
    static let registry = Registry()

    final class Registry: @unchecked Sendable {
        private struct Name: Hashable {
            let name: String
            let argumentType: ObjectIdentifier
        }

        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        /// Guarded by `mutex`.
        private var identities: [Name: InputIdentity] = [:]

        fileprivate init() {
            pthread_mutex_init(mutex, nil)
        }

        /// The identity of `name` and `argumentType`, made on first use.
        func identity(name: String, argumentType: ObjectIdentifier) -> InputIdentity {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            let key = Name(name: name, argumentType: argumentType)
            if let identity = identities[key] { return identity }
            let identity = InputIdentity(name: name, argumentType: argumentType, serial: identities.count)
            identities[key] = identity
            return identity
        }
    }
}
