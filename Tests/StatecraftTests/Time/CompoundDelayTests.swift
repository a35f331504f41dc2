@testable import Statecraft
import Testing

/// Compound durations (docs/machine-files.md#durations): several numbers with their units, from
/// the largest unit down, each once; only the last number may have a decimal point; and the
/// errors that say what is wrong with one, at the character at fault.
struct CompoundDelayTests {
    @Test(arguments: [
        ("9m59s", 599_000), ("1h30m", 5_400_000), ("1h30m15s250ms", 5_415_250), ("1m1.5s", 61_500), ("2h0m", 7_200_000),
        ("1h90m", 9_000_000), ("30s", 30_000), ("1.5s", 1_500), ("0s", 0), ("876600h", Delay.maximumMilliseconds),
    ])
    func aCompoundDurationIsTheSumOfItsParts(text: String, milliseconds: Int) throws {
        #expect(try Delay(parsing: text).milliseconds == milliseconds)
        #expect(try Delay(parsing: text).text == text)
    }

    @Test(arguments: [
        ("1h1h", "'h' appears twice in a duration; write each unit once, as 1h30m", 3),
        ("5m3h", "'h' comes after 'm' in a duration; write the units from the largest to the smallest, as 1h30m", 3),
        ("1s1m", "'m' comes after 's' in a duration; write the units from the largest to the smallest, as 1h30m", 3),
        ("1.5m30s", "only the last number of a duration may have a decimal point; write 1m30s, not 1.5m30s", 1),
        ("1h30", "each number of a duration needs a unit: ms, s, m or h", 4),
        ("1h 30m", "a duration has no blanks; write its numbers and units together, as 30s or 1h30m", 1),
        ("876600h1ms", "a duration is at most 100 years", 0),
        ("876599h60m1s", "a duration is at most 100 years", 0),
        ("1h30x", "'x' is not a unit of duration: ms, s, m or h", 4),
        ("1hm", "'hm' is not a unit of duration: ms, s, m or h", 1),
    ])
    func aBadCompoundDurationSaysWhatIsWrongAndWhere(text: String, message: String, offset: Int) {
        #expect(throws: Delay.ParseError(message: message, offset: offset)) { try Delay(parsing: text) }
    }

    @Test(arguments: [0, 1, 999, 1_000, 1_500, 59_999, 599_000, 5_400_000, 5_415_250, 90_061_001, Delay.maximumMilliseconds])
    func theCompoundTextOfADurationReadsBackAsIt(milliseconds: Int) throws {
        #expect(try Delay.milliseconds(Delay.compoundText(milliseconds: milliseconds).utf8) == milliseconds)
    }

    @Test func theCompoundTextWritesEachUnitThatIsNotZero() {
        #expect(Delay.compoundText(milliseconds: 599_000) == "9m59s")
        #expect(Delay.compoundText(milliseconds: 2_100_000) == "35m")
        #expect(Delay.compoundText(milliseconds: 3_601_500) == "1h1s500ms")
        #expect(Delay.compoundText(milliseconds: 0) == "0s")
    }
}
