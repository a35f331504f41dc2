#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A byte buffer in front of a file descriptor: results are appended as bytes and written in
/// large blocks, so printing a result costs no `String` and no system call.
struct OutputBuffer: ~Copyable {
    private let fd: Int32
    private let capacity: Int
    private let storage: UnsafeMutablePointer<UInt8>
    private var count = 0

    init(fd: Int32, capacity: Int = 1 << 20) {
        self.fd = fd
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        if count > 0 { writeAll(UnsafeRawBufferPointer(start: storage, count: count)) }
        storage.deallocate()
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { flush() }
        storage[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count > capacity - count {
            flush()
            if bytes.count > capacity {
                writeAll(bytes)
                return
            }
        }
        if let base = bytes.baseAddress {
            if bytes.count <= 128 {
                Self.copySmall(from: base, count: bytes.count, to: UnsafeMutableRawPointer(storage + count))
            } else {
                (storage + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            }
        }
        count &+= bytes.count
    }

    /// Appends the first `byteCount` bytes (at most 16) of `low` and then `high`, each laid out
    /// little-endian: one 16-byte store.
    @inline(__always)
    mutating func append(_ low: UInt64, _ high: UInt64, count byteCount: Int) {
        if capacity &- count < 16 { flush() }
        let target = UnsafeMutableRawPointer(storage + count)
        target.storeBytes(of: low.littleEndian, as: UInt64.self)
        target.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self)
        count &+= byteCount
    }

    /// Appends `first`, then `second`: one check for room when both are short (a plain result
    /// line and its cell's text).
    @inline(__always)
    mutating func append(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) {
        guard let a = first.baseAddress, let b = second.baseAddress, first.count <= 128, second.count <= 128,
            first.count &+ second.count <= capacity &- count
        else {
            appendEach(first, second)
            return
        }
        Self.copySmall(from: a, count: first.count, to: UnsafeMutableRawPointer(storage + count))
        Self.copySmall(from: b, count: second.count, to: UnsafeMutableRawPointer(storage + (count &+ first.count)))
        count &+= first.count &+ second.count
    }

    /// ``append(_:_:)`` for long or empty parts, or when the buffer is full: rare, so out of line.
    @inline(never)
    private mutating func appendEach(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) {
        append(first)
        append(second)
    }

    /// Copies up to 128 bytes with a few loads and stores that overlap in the middle, instead of
    /// a call to `memmove`: most of what a result prints is short.
    @inline(__always)
    private static func copySmall(from source: UnsafeRawPointer, count: Int, to target: UnsafeMutableRawPointer) {
        typealias Block = SIMD2<UInt64>
        typealias Wide = SIMD8<UInt64>
        if count >= 64 {
            let (a, b) = (source.loadUnaligned(as: Wide.self), source.loadUnaligned(fromByteOffset: count &- 64, as: Wide.self))
            target.storeBytes(of: a, as: Wide.self)
            target.storeBytes(of: b, toByteOffset: count &- 64, as: Wide.self)
        } else if count >= 32 {
            let (a, b) = (source.loadUnaligned(as: Block.self), source.loadUnaligned(fromByteOffset: 16, as: Block.self))
            let (c, d) = (
                source.loadUnaligned(fromByteOffset: count &- 32, as: Block.self),
                source.loadUnaligned(fromByteOffset: count &- 16, as: Block.self)
            )
            target.storeBytes(of: a, as: Block.self)
            target.storeBytes(of: b, toByteOffset: 16, as: Block.self)
            target.storeBytes(of: c, toByteOffset: count &- 32, as: Block.self)
            target.storeBytes(of: d, toByteOffset: count &- 16, as: Block.self)
        } else if count >= 16 {
            let (a, b) = (source.loadUnaligned(as: Block.self), source.loadUnaligned(fromByteOffset: count &- 16, as: Block.self))
            target.storeBytes(of: a, as: Block.self)
            target.storeBytes(of: b, toByteOffset: count &- 16, as: Block.self)
        } else if count >= 8 {
            let (a, b) = (source.loadUnaligned(as: UInt64.self), source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
            target.storeBytes(of: a, as: UInt64.self)
            target.storeBytes(of: b, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            let (a, b) = (source.loadUnaligned(as: UInt32.self), source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            target.storeBytes(of: a, as: UInt32.self)
            target.storeBytes(of: b, toByteOffset: count &- 4, as: UInt32.self)
        } else {
            for index in 0..<count { target.storeBytes(of: source.load(fromByteOffset: index, as: UInt8.self), toByteOffset: index, as: UInt8.self) }
        }
    }

    @inline(__always)
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `value` in decimal without building a `String`.
    @inline(__always)
    mutating func append(decimal value: Int) {
        DecimalDigits.with(value) { append($0) }
    }

    /// Writes out everything buffered.
    mutating func flush() {
        guard count > 0 else { return }
        writeAll(UnsafeRawBufferPointer(start: storage, count: count))
        count = 0
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                // The reader went away (EPIPE with SIGPIPE ignored) or the disk is full: stop
                // quietly, as a pipeline stage whose consumer stopped should.
                exit(errno == EPIPE ? 0 : 2)
            }
            offset += written
        }
    }
}
