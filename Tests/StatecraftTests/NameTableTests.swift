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
    /// into a walk of one long chain.
    @Test func namesThatDifferOnlyInTheMiddleStillSpread() {
        let names = (0..<50_000).map { "prefix-long-enough-\($0)-suffix-long-enough" }
        let table = NameTable(names)
        #expect(table.longestRun < 64)
        #expect(table.id(of: names[12_345]) == 12_345)
    }
}
