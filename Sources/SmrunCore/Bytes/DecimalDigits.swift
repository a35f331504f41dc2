/// Integers in decimal without building a `String`.
@usableFromInline package enum DecimalDigits {
    /// `00`, `01`, ... `99`: two digits per division by 100.
    @usableFromInline package static let pairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Calls `body` with the ASCII digits of `value`, after a `-` when it is negative.
    @inline(__always)
    @inlinable package static func with<Result>(_ value: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { buffer in
            let pairs = UnsafeRawPointer(Self.pairs.utf8Start)
            let text = buffer.baseAddress!
            var magnitude = value.magnitude
            var index = buffer.count
            while magnitude >= 100 {
                let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 100)
                index &-= 2
                text.storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(remainder) &* 2, as: UInt16.self), toByteOffset: index, as: UInt16.self)
                magnitude = quotient
            }
            if magnitude >= 10 {
                index &-= 2
                text.storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(magnitude) &* 2, as: UInt16.self), toByteOffset: index, as: UInt16.self)
            } else {
                index &-= 1
                text.storeBytes(of: UInt8(ascii: "0") &+ UInt8(magnitude), toByteOffset: index, as: UInt8.self)
            }
            if value < 0 {
                index &-= 1
                text.storeBytes(of: UInt8(ascii: "-"), toByteOffset: index, as: UInt8.self)
            }
            return body(UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }
}
