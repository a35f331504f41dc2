/// Byte strings laid end to end in one allocation and addressed by index: what the printer
/// copies into its output. Reading one costs no reference counting, unlike `[[UInt8]]`.
@usableFromInline package struct BytePool: ~Copyable {
    @usableFromInline package let storage: UnsafeMutableRawPointer
    @usableFromInline package let ranges: UnsafeMutablePointer<(start: Int, count: Int)>
    @usableFromInline package let count: Int

    @inlinable package init(_ strings: [[UInt8]]) {
        let total = strings.reduce(0) { $0 + $1.count }
        storage = .allocate(byteCount: max(total, 1), alignment: 1)
        ranges = .allocate(capacity: max(strings.count, 1))
        count = strings.count
        var offset = 0
        for (index, bytes) in strings.enumerated() {
            bytes.withUnsafeBytes { if let base = $0.baseAddress { (storage + offset).copyMemory(from: base, byteCount: $0.count) } }
            ranges[index] = (offset, bytes.count)
            offset += bytes.count
        }
    }

    deinit {
        storage.deallocate()
        ranges.deallocate()
    }

    @inline(__always)
    @inlinable package subscript(index: Int) -> UnsafeRawBufferPointer {
        let range = ranges[index]
        return UnsafeRawBufferPointer(start: storage + range.start, count: range.count)
    }
}
