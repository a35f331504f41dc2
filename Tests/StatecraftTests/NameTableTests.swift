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
}
