/// The start of a JSON result line, `{"line":` and the script line's decimal digits, kept from
/// one result to the next: lines mostly advance by one, and counting up in place is cheaper
/// than formatting anew.
struct JSONLineStart {
    /// `{"line":` and then the digits, which end the storage; the text starts at `start`.
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var start = 32
    /// The line the digits spell; -1 before the first.
    private var line = -1

    private static let opening: StaticString = #"{"line":"#

    /// Calls `body` with `{"line":` and the digits of `line`, a line number (not negative).
    @inline(__always)
    mutating func with<Result>(_ line: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if line != self.line {
            // Most often only the last digit changes.
            let last = withUnsafeBytes(of: &storage) { $0[31] }
            if line == self.line &+ 1 && self.line >= 0 && last != UInt8(ascii: "9") {
                withUnsafeMutableBytes(of: &storage) { $0[31] = last &+ 1 }
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
        // Where the digits start.
        var first = start &+ Self.opening.utf8CodeUnitCount
        withUnsafeMutableBytes(of: &storage) { text in
            if countsUp {
                var index = text.count - 1
                while index >= first && text[index] == UInt8(ascii: "9") {
                    text[index] = UInt8(ascii: "0")
                    index -= 1
                }
                if index >= first {
                    text[index] &+= 1
                } else {
                    first -= 1
                    text[first] = UInt8(ascii: "1")
                }
            } else {
                DecimalDigits.with(next) { spelled in
                    first = text.count - spelled.count
                    UnsafeMutableRawBufferPointer(rebasing: text[first...]).copyMemory(from: spelled)
                }
            }
            let opening = UnsafeRawBufferPointer(start: Self.opening.utf8Start, count: Self.opening.utf8CodeUnitCount)
            UnsafeMutableRawBufferPointer(rebasing: text[(first - opening.count)..<first]).copyMemory(from: opening)
        }
        start = first - Self.opening.utf8CodeUnitCount
    }
}
