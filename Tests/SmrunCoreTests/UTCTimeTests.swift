import Testing

@testable import SmrunCore

/// Times on the real clock as the API and `smrun status` write them (docs/serving.md): RFC 3339,
/// UTC, with milliseconds, from milliseconds since the Unix epoch.
@Suite struct UTCTimeTests {
    @Test(arguments: [
        (0, "1970-01-01T00:00:00.000Z"), (1_764_469_929_898, "2025-11-30T02:32:09.898Z"), (951_782_400_007, "2000-02-29T00:00:00.007Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"), (-1, "1969-12-31T23:59:59.999Z"),
    ])
    func aTimeIsWrittenAsUTCWithMilliseconds(milliseconds: Int, text: String) {
        #expect(DueTime.utc(milliseconds) == text)
    }
}
