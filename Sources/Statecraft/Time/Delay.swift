/// A duration as machine files, scripts and `--wait` write it: a number (integer or decimal)
/// and a unit, `ms`, `s`, `m` or `h` (`250ms`, `30s`, `1.5s`, `5m`, `1h`), from 0 up to 100
/// years, with a resolution of one millisecond (docs/machine-files.md).
@usableFromInline package struct Delay: Hashable, Sendable, CustomStringConvertible {
    /// The duration in milliseconds.
    package let milliseconds: Int
    /// The duration as written (`30s`), for results and diagrams.
    package let text: String

    /// The longest duration: 100 years of 365.25 days, in milliseconds.
    package static let maximumMilliseconds = 3_155_760_000_000

    /// Why a text is not a duration, and at which character (from 0).
    package struct ParseError: Error, Sendable, Equatable {
        /// What is wrong, as one clause (`a duration needs a unit: ms, s, m or h`).
        package let message: String
        /// The offset, in characters, of the first character at fault.
        package let offset: Int
    }

    /// A duration of `milliseconds`, written `text`.
    package init(milliseconds: Int, text: String) {
        self.milliseconds = milliseconds
        self.text = text
    }

    /// `text`.
    @usableFromInline package var description: String { text }

    /// `milliseconds` written in the largest unit that writes it whole: `1h`, `5m`, `30s`,
    /// `1500ms`.
    package static func text(milliseconds: Int) -> String {
        for (unit, scale) in [("h", 3_600_000), ("m", 60_000), ("s", 1_000)] where milliseconds > 0 && milliseconds % scale == 0 {
            return "\(milliseconds / scale)\(unit)"
        }
        return "\(milliseconds)ms"
    }

    /// Parses `text` (surrounding blanks are not allowed; the caller trims).
    package init(parsing text: String) throws(ParseError) {
        let bytes = Array(text.utf8)
        self.init(milliseconds: try Self.milliseconds(bytes), text: text)
    }

    /// Parses UTF-8 bytes, as ``init(parsing:)``, to milliseconds.
    package static func milliseconds(_ bytes: some Collection<UInt8>) throws(ParseError) -> Int {
        let bytes = Array(bytes)
        let example = "write a number and a unit, as 250ms, 30s, 1.5s, 5m or 1h"
        guard !bytes.isEmpty else { throw ParseError(message: "a duration is empty; \(example)", offset: 0) }
        if bytes[0] == UInt8(ascii: "-") { throw ParseError(message: "a duration cannot be negative", offset: 0) }
        var index = 0
        var whole: [UInt8] = []
        var fraction: [UInt8] = []
        var sawPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if sawPoint { fraction.append(byte) } else { whole.append(byte) }
            } else if byte == UInt8(ascii: ".") {
                if sawPoint { throw ParseError(message: "a duration's number has one decimal point at most", offset: index) }
                sawPoint = true
            } else {
                break
            }
            index += 1
        }
        guard !whole.isEmpty else {
            throw ParseError(message: "a duration starts with a number; \(example)", offset: 0)
        }
        if sawPoint && fraction.isEmpty {
            throw ParseError(message: "a decimal point needs digits after it", offset: index)
        }
        let unitStart = index
        let unit = String(decoding: bytes[index...], as: UTF8.self)
        let scale: Int
        switch unit {
        case "ms": scale = 1
        case "s": scale = 1_000
        case "m": scale = 60_000
        case "h": scale = 3_600_000
        case "":
            throw ParseError(message: "a duration needs a unit: ms, s, m or h", offset: unitStart)
        default:
            throw ParseError(message: "'\(unit)' is not a unit of duration: ms, s, m or h", offset: unitStart)
        }
        let tooLong = ParseError(message: "a duration is at most 100 years", offset: 0)
        // Leading zeros cost nothing; more than 13 significant digits is over the maximum anyway.
        let significant = whole.drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 13 else { throw tooLong }
        var value = 0
        for digit in significant { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
        let (scaled, overflow) = value.multipliedReportingOverflow(by: scale)
        guard !overflow, scaled <= maximumMilliseconds else { throw tooLong }
        // The fraction, to the millisecond: digits beyond it must be zeros.
        var fractionMilliseconds = 0
        var unitPart = scale
        for (position, digit) in fraction.enumerated() {
            let digitValue = Int(digit - UInt8(ascii: "0"))
            guard unitPart % 10 == 0 else {
                if digitValue != 0 {
                    throw ParseError(
                        message: "a duration's resolution is one millisecond", offset: unitStart - fraction.count + position)
                }
                continue
            }
            unitPart /= 10
            fractionMilliseconds += digitValue * unitPart
        }
        let total = scaled + fractionMilliseconds
        guard total <= maximumMilliseconds else { throw tooLong }
        return total
    }
}
