import Testing

@testable import Statecraft

/// The loader's interning of names: one id (and one `String`) per distinct spelling, by its
/// bytes, however many spellings and however alike.
struct TextInternerTests {
    func id(_ interner: inout TextInterner, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { interner.id(of: $0) }
    }

    func id(_ interner: inout TextInterner, _ text: String) -> Int { id(&interner, Array(text.utf8)) }

    @Test func equalSpellingsShareAnIdAndDistinctOnesDoNot() {
        var interner = TextInterner()
        let names = ["parked", "drivingAround", "parked", "", "p", "parke", "parkedd", "Parked", "drivingAround", "é", "e\u{301}"]
        let ids = names.map { id(&interner, $0) }
        // Ids are dense, in order of first appearance.
        #expect(ids == [0, 1, 0, 2, 3, 4, 5, 6, 1, 7, 8])
        #expect(interner.strings == ["parked", "drivingAround", "", "p", "parke", "parkedd", "Parked", "é", "e\u{301}"])
    }

    @Test func spellingsThatDifferInOneByteAnywhereAreTold() {
        // Up to 40 bytes: the short keys (1 to 3, 4 to 7, 8 to 16 bytes) and the middle of longer ones.
        for length in 1...40 {
            var interner = TextInterner()
            let base = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(id(&interner, base) == 0)
            for position in 0..<length {
                var variant = base
                variant[position] = UInt8(ascii: "b")
                #expect(id(&interner, variant) == position + 1, "length \(length), position \(position)")
            }
            #expect(id(&interner, base) == 0)
            #expect(id(&interner, base + [UInt8(ascii: "a")]) == length + 1)
            #expect(id(&interner, Array(base.dropLast())) == length + 2)
        }
    }

    @Test func embeddedNULsArePartOfTheSpelling() {
        var interner = TextInterner()
        let spellings: [[UInt8]] = [
            [], [0], [0, 0], [0, 0, 0], Array("a".utf8), Array("a".utf8) + [0], [0] + Array("a".utf8), Array("a\0b".utf8), Array("a\0c".utf8),
            Array("name\0".utf8), Array("name\0\0\0\0".utf8), Array("name".utf8), Array("eight\0\0\0".utf8), Array("eight\0\0\0\0".utf8),
            Array("a long name with a NUL\0 in its middle".utf8), Array("a long name with a NUL\0 in its middlf".utf8),
        ]
        let ids = spellings.map { id(&interner, $0) }
        #expect(ids == Array(0..<spellings.count))
        #expect(spellings.map { id(&interner, $0) } == ids)
        #expect(interner.strings[7] == "a\0b")
    }

    @Test func invalidUTF8SpellingsAreToldApartByTheirBytes() {
        var interner = TextInterner()
        // Both decode to "\u{FFFD}", yet they are two spellings.
        let ff = id(&interner, [0xFF])
        let fe = id(&interner, [0xFE])
        #expect(ff != fe)
        #expect(id(&interner, [0xFF]) == ff)
        #expect(interner.strings[ff] == "\u{FFFD}" && interner.strings[fe] == "\u{FFFD}")
    }

    @Test func longSpellingsAreComparedWhole() {
        var interner = TextInterner()
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        var middle = long
        middle[long.count / 2] = UInt8(ascii: "y")
        var nearEnd = long
        nearEnd[long.count - 20] = UInt8(ascii: "y")
        #expect(id(&interner, long) == 0)
        #expect(id(&interner, middle) == 1)
        #expect(id(&interner, nearEnd) == 2)
        #expect(id(&interner, long) == 0)
        #expect(id(&interner, middle) == 1)
        #expect(interner.strings[0].utf8.count == 1 << 20)
    }

    @Test func idsSurviveTheTableGrowing() {
        var interner = TextInterner()
        let names = (0..<20_000).map { "state\($0)" } + (0..<1_000).map { "a much longer name, over sixteen bytes, number \($0)" }
        for (expected, name) in names.enumerated() {
            #expect(id(&interner, name) == expected)
        }
        // Every one is found again, after many doublings, in any order.
        for (expected, name) in names.enumerated().reversed() where id(&interner, name) != expected {
            Issue.record("\(name) lost its id \(expected)")
        }
        #expect(interner.strings.count == names.count)
        #expect(interner.strings == names)
    }

    @Test func theSameStringForEveryUse() {
        var interner = TextInterner()
        let first = Array("drivingAround".utf8).withUnsafeBytes { interner.string($0) }
        let again = Array("drivingAround".utf8).withUnsafeBytes { interner.string($0) }
        #expect(first == "drivingAround" && again == first)
        let position = SourcePosition(line: 4, column: 7)
        let named = Array("parked".utf8).withUnsafeBytes { interner.named($0, at: position) }
        #expect(named.name == "parked" && named.position == position)
        #expect(named.spelling == id(&interner, "parked"))
        #expect(named.spelling != id(&interner, "drivingAround"))
    }

    /// The table that decoded transitions keep their names in gives each spelling the interner
    /// gave, also when a copy of the interner added other spellings to it first.
    @Test func theSharedTableHoldsTheSpellingsOfTheInternerThatAsks() {
        var interner = TextInterner()
        _ = id(&interner, "idle")
        let table = interner.sharedSpellings()
        var copy = interner
        _ = id(&copy, "copied")
        let running = Array("running".utf8).withUnsafeBytes { interner.named($0, at: .unknown) }
        let tableNow = interner.sharedSpellings()
        #expect(tableNow.strings[running.spelling] == "running")
        #expect(tableNow.holds(running))
        #expect(copy.sharedSpellings().strings == ["idle", "copied"])
        #expect(table.strings.first == "idle")
    }
}
