/// The decimal digits of the script line being printed, kept from one result to the next:
/// lines mostly advance by one, and counting up in place is cheaper than formatting anew.
struct LineNumberDigits {
    /// The digits, right-aligned from `start`.
    private var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private var start = 24
    /// The line the digits spell; -1 before the first.
    private var line = -1

    /// Calls `body` with the digits of `line`, a line number (not negative).
    @inline(__always)
    mutating func with<Result>(_ line: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if line != self.line {
            // Most often only the last digit changes.
            let last = withUnsafeBytes(of: &storage) { $0[23] }
            if line == self.line &+ 1 && self.line >= 0 && last != UInt8(ascii: "9") {
                withUnsafeMutableBytes(of: &storage) { $0[23] = last &+ 1 }
                self.line = line
            } else {
                spell(line)
            }
        }
        let start = start
        return withUnsafeBytes(of: &storage) { body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }

    private mutating func spell(_ next: Int) {
        let countsUp = line >= 0 && next == line &+ 1
        line = next
        var start = start
        withUnsafeMutableBytes(of: &storage) { digits in
            if countsUp {
                var index = digits.count - 1
                while index >= start && digits[index] == UInt8(ascii: "9") {
                    digits[index] = UInt8(ascii: "0")
                    index -= 1
                }
                if index >= start {
                    digits[index] &+= 1
                } else {
                    start -= 1
                    digits[start] = UInt8(ascii: "1")
                }
            } else {
                DecimalDigits.with(next) { spelled in
                    start = digits.count - spelled.count
                    UnsafeMutableRawBufferPointer(rebasing: digits[start...]).copyMemory(from: spelled)
                }
            }
        }
        self.start = start
    }
}
