/// Where an ``OwnedStateMachine`` copies a plain argument (an `Int`, a small struct of numbers)
/// while its row's effects read it, so that the argument needs no address on the stack, which
/// would cost a stack protector per send. The machine owns it (it cannot be copied) and frees
/// it in its `deinit`.
@usableFromInline
struct ArgumentScratch: @unchecked Sendable {
    /// The most bytes an argument copied here may take.
    @inlinable static var size: Int { 32 }

    @usableFromInline let address: UnsafeMutableRawPointer

    init() {
        address = .allocate(byteCount: Self.size, alignment: 16)
    }

    /// Whether an `Argument` may be copied here: plain data of at most ``size`` bytes and an
    /// alignment the memory has.
    @inlinable
    static func holds<Argument>(_: Argument.Type) -> Bool {
        _isPOD(Argument.self) && MemoryLayout<Argument>.size <= size && MemoryLayout<Argument>.alignment <= 16
    }

    /// Copies `argument` here and returns where it is.
    @inlinable
    func store<Argument>(_ argument: Argument) -> UnsafeRawPointer {
        address.storeBytes(of: argument, as: Argument.self)
        return UnsafeRawPointer(address)
    }

    /// Frees the memory; the machine's `deinit` calls it once.
    func free() {
        address.deallocate()
    }
}
