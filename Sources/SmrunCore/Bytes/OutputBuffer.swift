#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A byte buffer in front of a file descriptor: results are appended as bytes and written in
/// large blocks, so printing a result costs no `String` and no system call. Made with
/// ``init(keepingInMemory:)``, it writes nothing and grows instead, keeping everything for
/// ``takeBytes()`` or ``pendingBytes`` (the server's results, `--by-key`'s lines).
@usableFromInline package struct OutputBuffer: ~Copyable {
    @usableFromInline package let fd: Int32
    @usableFromInline package var capacity: Int
    @usableFromInline package var storage: UnsafeMutablePointer<UInt8>
    @usableFromInline package var count = 0

    @inlinable package init(fd: Int32, capacity: Int = 1 << 20) {
        self.fd = fd
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    /// A buffer that writes nothing and grows as needed: ``takeBytes()`` returns everything
    /// appended.
    @inlinable package init(keepingInMemory capacity: Int) {
        self.init(fd: -1, capacity: capacity)
    }

    deinit {
        if count > 0 && fd >= 0 { Self.writeOut(UnsafeRawBufferPointer(start: storage, count: count), to: fd) }
        storage.deallocate()
    }

    @inline(__always)
    @inlinable package mutating func append(_ byte: UInt8) {
        if count == capacity { flush() }
        storage[count] = byte
        count &+= 1
    }

    @inline(__always)
    @inlinable package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count > capacity - count {
            flush()
            if fd < 0 && bytes.count > capacity - count { grow(toHold: count + bytes.count) }
            if bytes.count > capacity - count {
                writeAll(bytes)
                return
            }
        }
        if let base = bytes.baseAddress {
            if bytes.count <= 128 {
                SmallCopy.copySmall(from: base, count: bytes.count, to: UnsafeMutableRawPointer(storage + count))
            } else {
                (storage + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            }
        }
        count &+= bytes.count
    }

    /// Appends the first `byteCount` bytes (at most 16) of `low` and then `high`, each laid out
    /// little-endian: one 16-byte store.
    @inline(__always)
    @inlinable package mutating func append(_ low: UInt64, _ high: UInt64, count byteCount: Int) {
        if capacity &- count < 16 { flush() }
        let target = UnsafeMutableRawPointer(storage + count)
        target.storeBytes(of: low.littleEndian, as: UInt64.self)
        target.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self)
        count &+= byteCount
    }

    /// Appends `first`, then `second`: one check for room when both are short (a plain result
    /// line and its cell's text).
    @inline(__always)
    @inlinable package mutating func append(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) {
        guard let a = first.baseAddress, let b = second.baseAddress, first.count <= 128, second.count <= 128,
            first.count &+ second.count <= capacity &- count
        else {
            appendEach(first, second)
            return
        }
        SmallCopy.copySmall(from: a, count: first.count, to: UnsafeMutableRawPointer(storage + count))
        SmallCopy.copySmall(from: b, count: second.count, to: UnsafeMutableRawPointer(storage + (count &+ first.count)))
        count &+= first.count &+ second.count
    }

    /// Where the next `byteCount` bytes go, once what is buffered is written out when they do
    /// not fit; `nil` when they are more than the buffer holds. The caller writes at most that
    /// many there, then says how many with ``didWrite(_:)``: a line of several parts checks for
    /// room once.
    @inline(__always)
    @inlinable package mutating func room(for byteCount: Int) -> UnsafeMutableRawPointer? {
        if byteCount > capacity &- count {
            guard byteCount <= capacity else { return nil }
            flushForRoom()
        }
        return UnsafeMutableRawPointer(storage + count)
    }

    /// Counts `byteCount` bytes written where ``room(for:)`` said, which made room for them.
    @inline(__always)
    @inlinable package mutating func didWrite(_ byteCount: Int) {
        count &+= byteCount
    }

    /// ``flush()``, out of the line of ``room(for:)``.
    @inline(never)
    @inlinable package mutating func flushForRoom() {
        flush()
    }

    /// ``append(_:_:)`` for long or empty parts, or when the buffer is full: rare, so out of line.
    @inline(never)
    @inlinable package mutating func appendEach(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) {
        append(first)
        append(second)
    }

    @inline(__always)
    @inlinable package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    @inline(__always)
    @inlinable package mutating func append(_ literal: StaticString) {
        append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inlinable package mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `value` in decimal without building a `String`.
    @inline(__always)
    @inlinable package mutating func append(decimal value: Int) {
        DecimalDigits.with(value) { append($0) }
    }

    /// The bytes appended since the last flush, removed without being written: what a printer
    /// renders once to copy later.
    @inlinable package mutating func takeBytes() -> [UInt8] {
        defer { count = 0 }
        return Array(UnsafeBufferPointer(start: storage, count: count))
    }

    /// What was appended since the last ``takeBytes()`` or ``clear()``, in place: valid until
    /// the next append.
    @inlinable package var pendingBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// Forgets what was appended, writing nothing.
    @inlinable package mutating func clear() {
        count = 0
    }

    /// Writes out everything buffered.
    /// Writes out everything buffered; in memory, makes room instead (doubles the buffer).
    @inlinable package mutating func flush() {
        guard fd >= 0 else { return grow(toHold: capacity * 2) }
        guard count > 0 else { return }
        writeAll(UnsafeRawBufferPointer(start: storage, count: count))
        count = 0
    }

    /// In memory: a larger buffer, holding what was appended.
    @inlinable package mutating func grow(toHold byteCount: Int) {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(byteCount, capacity))
        larger.update(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity = max(byteCount, capacity)
    }

    @inlinable package mutating func writeAll(_ bytes: UnsafeRawBufferPointer) {
        Self.writeOut(bytes, to: fd)
    }

    @inlinable package static func writeOut(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
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
