/// A duration as machine files, scripts and `--wait` write it: a number (integer or decimal)
/// and a unit, `ms`, `s`, `m` or `h` (`250ms`, `30s`, `1.5s`, `5m`, `1h`), or several with
/// their units from the largest down (`1h30m`, `9m59s`), from 0 up to 100 years, with a
/// resolution of one millisecond (docs/machine-files.md).
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
        @usableFromInline package let message: String
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

    /// Parses UTF-8 bytes, as ``init(parsing:)``, to milliseconds: one number and unit, or
    /// several with their units from the largest to the smallest, each unit once (`1h30m`,
    /// `9m59s`, `1m1.5s`), where only the last number may have a decimal point.
    package static func milliseconds(_ bytes: some Collection<UInt8>) throws(ParseError) -> Int {
        let bytes = Array(bytes)
        let example = "write a number and a unit, as 250ms, 30s, 1.5s, 5m or 1h, or several from the largest unit down, as 1h30m"
        guard !bytes.isEmpty else { throw ParseError(message: "a duration is empty; \(example)", offset: 0) }
        if bytes[0] == UInt8(ascii: "-") { throw ParseError(message: "a duration cannot be negative", offset: 0) }
        let tooLong = ParseError(message: "a duration is at most 100 years", offset: 0)
        let units: [(name: String, scale: Int)] = [("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1)]
        var total = 0
        var index = 0
        // The previous part's unit (an index into `units`), its offset, and where its decimal
        // point was, if it had one.
        var previous: (unit: Int, offset: Int, point: Int?)?
        while index < bytes.count {
            let numberStart = index
            var whole: [UInt8] = []
            var fraction: [UInt8] = []
            var point: Int?
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    if point != nil { fraction.append(byte) } else { whole.append(byte) }
                } else if byte == UInt8(ascii: ".") {
                    if point != nil { throw ParseError(message: "a duration's number has one decimal point at most", offset: index) }
                    point = index
                } else {
                    break
                }
                index += 1
            }
            guard !whole.isEmpty else {
                throw ParseError(message: "a duration starts with a number; \(example)", offset: numberStart)
            }
            if point != nil && fraction.isEmpty {
                throw ParseError(message: "a decimal point needs digits after it", offset: index)
            }
            if let previous, let earlierPoint = previous.point {
                throw ParseError(
                    message: "only the last number of a duration may have a decimal point; write 1m30s, not 1.5m30s",
                    offset: earlierPoint)
            }
            // The unit: the letters up to the next number (or the end), or the rest when it
            // holds no digit, so that `5 parsecs` is named whole.
            let unitStart = index
            var unitEnd = index
            while unitEnd < bytes.count, !(bytes[unitEnd] >= UInt8(ascii: "0") && bytes[unitEnd] <= UInt8(ascii: "9")),
                bytes[unitEnd] != UInt8(ascii: ".")
            {
                unitEnd += 1
            }
            let unitText = String(decoding: bytes[unitStart..<unitEnd], as: UTF8.self)
            guard let unit = units.firstIndex(where: { $0.name == unitText }) else {
                if unitText.isEmpty {
                    throw ParseError(
                        message: previous == nil
                            ? "a duration needs a unit: ms, s, m or h"
                            : "each number of a duration needs a unit: ms, s, m or h", offset: unitStart)
                }
                let trimmed = unitText.filter { $0 != " " && $0 != "\t" }
                if trimmed != unitText, units.contains(where: { $0.name == trimmed }) {
                    throw ParseError(
                        message: "a duration has no blanks; write its numbers and units together, as 30s or 1h30m", offset: unitStart)
                }
                throw ParseError(message: "'\(unitText)' is not a unit of duration: ms, s, m or h", offset: unitStart)
            }
            if let previous {
                if unit == previous.unit {
                    throw ParseError(
                        message: "'\(unitText)' appears twice in a duration; write each unit once, as 1h30m", offset: unitStart)
                }
                if unit < previous.unit {
                    throw ParseError(
                        message: "'\(unitText)' comes after '\(units[previous.unit].name)' in a duration; write the units from the largest to the smallest, as 1h30m",
                        offset: unitStart)
                }
            }
            let scale = units[unit].scale
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
            total += scaled + fractionMilliseconds
            guard total <= maximumMilliseconds else { throw tooLong }
            previous = (unit, unitStart, point)
            index = unitEnd
        }
        return total
    }

    /// `milliseconds` as a compound duration that ``milliseconds(_:)`` reads back, for people:
    /// `1h30m`, `9m59s`, `1s500ms`, `0s`.
    package static func compoundText(milliseconds: Int) -> String {
        guard milliseconds > 0 else { return "0s" }
        var rest = milliseconds
        var text = ""
        for (unit, scale) in [("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1)] where rest >= scale {
            text += "\(rest / scale)\(unit)"
            rest %= scale
        }
        return text
    }
}
