/// Copies of short byte strings, which most of what smrun prints is: a few loads and stores
/// rather than a call to `memmove`.
@usableFromInline package enum SmallCopy {
    /// Copies up to 128 bytes with a few loads and stores that overlap in the middle, instead of
    /// a call to `memmove`: most of what a result prints is short. Every byte is loaded before
    /// any is stored, so the two ranges may overlap.
    @inline(__always)
    @inlinable package static func copySmall(from source: UnsafeRawPointer, count: Int, to target: UnsafeMutableRawPointer) {
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
        } else if count >= 2 {
            let (a, b) = (source.loadUnaligned(as: UInt16.self), source.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self))
            target.storeBytes(of: a, as: UInt16.self)
            target.storeBytes(of: b, toByteOffset: count &- 2, as: UInt16.self)
        } else if count == 1 {
            // Not a loop over the bytes: the compiler makes such a loop a call to `memcpy`.
            target.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
        }
    }

    /// Copies `count` bytes, in line when they are at most 128 (``copySmall(from:count:to:)``),
    /// else with `memmove`. The two ranges do not overlap.
    @inline(__always)
    @inlinable package static func copy(from source: UnsafeRawPointer, count: Int, to target: UnsafeMutableRawPointer) {
        if count <= 128 {
            copySmall(from: source, count: count, to: target)
        } else {
            target.copyMemory(from: source, byteCount: count)
        }
    }
}
