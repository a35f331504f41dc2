/// Integers in decimal without building a `String`.
enum DecimalDigits {
    /// Calls `body` with the ASCII digits of `value`, after a `-` when it is negative.
    @inline(__always)
    static func with<Result>(_ value: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var magnitude = value.magnitude
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            if value < 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            return body(UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }
}
