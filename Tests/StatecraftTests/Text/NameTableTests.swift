import Testing

@testable import Statecraft

struct NameTableTests {
    @Test func findsEveryNameByItsBytesAndNothingElse() {
        let names = (0..<1000).map { "input\($0)" } + ["", "é", "a b"]
        let table = NameTable(names)
        for (id, name) in names.enumerated() {
            #expect(table.id(of: name) == id)
        }
        #expect(table.id(of: "input1000") == nil)
        #expect(table.id(of: "input") == nil)
        #expect(table.id(of: "Input1") == nil)
    }

    @Test func namesThatDifferInOneByteAnywhereAreTold() {
        for length in 1...40 {
            let base = String(repeating: "a", count: length)
            let names = [base] + (0..<length).map { position in
                String(base.prefix(position)) + "b" + String(base.dropFirst(position + 1))
            }
            let table = NameTable(names)
            for (id, name) in names.enumerated() { #expect(table.id(of: name) == id) }
            #expect(table.id(of: base + "a") == nil)
            #expect(table.id(of: String(base.dropLast())) == nil)
        }
    }

    /// A hostile file whose names share their first and last bytes must not turn every lookup
    /// into a walk of one long chain. (The bound leaves room for the seed: with random
    /// multipliers, the longest run of 50,000 names is usually 20 to 40 and was seen at 69 once;
    /// a hash that ignored the middle bytes would make runs of thousands.)
    @Test func namesThatDifferOnlyInTheMiddleStillSpread() {
        let names = (0..<50_000).map { "prefix-long-enough-\($0)-suffix-long-enough" }
        let table = NameTable(names)
        #expect(table.longestRun < 256)
        #expect(table.id(of: names[12_345]) == 12_345)
    }

    /// Names of 17 to 24 bytes hash their one middle word in line: names that differ only there
    /// must spread too.
    @Test func namesThatDifferOnlyInAShortMiddleStillSpread() {
        let names = (0..<50_000).map { "prefix-#\(String($0 + 100_000).dropFirst())#-suffix" }
        #expect(names.allSatisfy { $0.utf8.count == 21 })
        let table = NameTable(names)
        #expect(table.longestRun < 256)
        #expect(table.id(of: names[31_337]) == 31_337)
    }

    @Test func aLookupReturnsTheNamesTag() {
        let table = NameTable(["go", "wait", "a-much-longer-name-than-sixteen"], tags: [0, 7, -2])
        func entry(_ name: String) -> [Int]? {
            var name = name
            return name.withUTF8 { table.entry(of: UnsafeRawBufferPointer($0)) }.map { [$0.id, Int($0.tag)] }
        }
        #expect(entry("wait") == [1, 7])
        #expect(entry("a-much-longer-name-than-sixteen") == [2, -2])
        #expect(entry("go") == [0, 0])
        #expect(entry("stop") == nil)
        #expect(table.longestName == 31)
    }
}
