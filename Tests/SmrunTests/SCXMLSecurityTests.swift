import Foundation
import TestSupport
import Testing

/// A hostile SCXML document is refused quickly with a clear error, never read further, never
/// a hang (docs/scxml.md, security): entities are never declared (a document type declaration
/// is refused as it is met), libxml2 reads nothing from the network or the disk, and the bounds
/// of machine files apply.
@Suite struct SCXMLSecurityTests {
    private let quick: Duration = .seconds(1)
    private let machine = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\"><state id=\"a\"/></scxml>\n"

    private func expectRefused(_ run: SmrunOutput, _ file: String, code: String, mentioning words: [String]) throws {
        run.expectRefusedMachine(file)
        let line = try #require(run.errorLines.first)
        #expect(line.hasSuffix("[\(code)]"), "\(line)")
        for word in words { #expect(line.contains(word), "\(line)") }
        #expect(run.elapsed < quick, "took \(run.elapsed)")
    }

    @Test(.timeBound, arguments: ["file:///etc/passwd", "/etc/passwd", "http://127.0.0.1:9/secret"])
    func externalEntitiesReadNothing(_ source: String) throws {
        let files = try TemporaryFiles()
        let file = try files.file(
            "xxe.scxml",
            """
            <?xml version="1.0"?>
            <!DOCTYPE scxml [ <!ENTITY secret SYSTEM "\(source)"> ]>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="&secret;"><state id="a"/></scxml>
            """)
        let run = try Smrun.run(["validate", file])
        #expect(run.exited(1))
        #expect(!run.text.contains("root:"), "read /etc/passwd: \(run.text)")
        let line = try #require(run.lines.first)
        #expect(line.hasPrefix("\(file):2: error:") && line.contains("<!DOCTYPE") && line.hasSuffix("[unsupported]"), "\(line)")
        #expect(run.elapsed < quick, "took \(run.elapsed)")
    }

    @Test(.timeBound) func billionLaughsIsRefusedQuickly() throws {
        let files = try TemporaryFiles()
        var entities = "<!ENTITY l0 \"lol\">\n"
        for level in 1...9 { entities += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">\n" }
        let file = try files.file(
            "laughs.scxml",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE scxml [\n\(entities)]>\n<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" name=\"&l9;\"><state id=\"a\"/></scxml>\n")
        try expectRefused(try Smrun.run([file]), file, code: "unsupported", mentioning: ["<!DOCTYPE"])
    }

    @Test(.timeBound) func deepNestingIsRefusedQuickly() throws {
        let files = try TemporaryFiles()
        let depth = 100_000
        let file = try files.file(
            "deep.scxml",
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n" + String(repeating: "<state>", count: depth)
                + String(repeating: "</state>", count: depth) + "</scxml>\n")
        try expectRefused(try Smrun.run([file]), file, code: "limit-exceeded", mentioning: ["256"])
        // The bound is --max-depth, as for YAML files.
        try expectRefused(try Smrun.run([file, "--max-depth", "40"]), file, code: "limit-exceeded", mentioning: ["--max-depth"])
    }

    @Test(.timeBound) func hugeAttributesAreRefusedQuickly() throws {
        let files = try TemporaryFiles()
        // 20 MB: over the file-size bound, refused before it is read.
        let huge = String(repeating: "x", count: 20 << 20)
        let file = try files.file("huge.scxml", "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" name=\"\(huge)\"><state id=\"a\"/></scxml>\n")
        let bySize = try Smrun.run([file])
        bySize.expectRefusedMachine(file)
        #expect(bySize.fileDiagnostic(file, "limit-exceeded")?.contains("--max-file-size") == true, "\(bySize.errorText.prefix(300))")
        #expect(bySize.elapsed < quick, "took \(bySize.elapsed)")
        // With the bound raised, libxml2's own bound on a value (10 MB) refuses it.
        let byLibXML2 = try Smrun.run([file, "--max-file-size", "\(64 << 20)"])
        byLibXML2.expectRefusedMachine(file)
        #expect(byLibXML2.errorLines.first?.hasSuffix("longer than libxml2's bound of 10,000,000 bytes [limit-exceeded]") == true, "\(byLibXML2.errorText)")
    }

    @Test func manyNodesStopAtTheNodeBound() throws {
        let files = try TemporaryFiles()
        let file = try files.file(
            "wide.scxml", "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">" + String(repeating: "<state/>", count: 1000) + "</scxml>\n")
        try expectRefused(try Smrun.run([file, "--max-nodes", "500"]), file, code: "limit-exceeded", mentioning: ["--max-nodes"])
    }

    @Test func xIncludeIsNotFollowed() throws {
        let files = try TemporaryFiles()
        let file = try files.file(
            "include.scxml",
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:xi="http://www.w3.org/2001/XInclude">
              <xi:include href="/etc/passwd" parse="text"/>
              <state id="a"/>
            </scxml>
            """)
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        #expect(run.errorLines.first?.hasPrefix("\(file):2: error: <include> of namespace http://www.w3.org/2001/XInclude is not supported") == true, "\(run.errorText)")
        #expect(!run.errorText.contains("root:"))
    }
}

/// Reading a document by its extension or by `--input-format`.
@Suite struct SCXMLInputFormatTests {
    @Test func theExtensionOrTheFlagChoosesTheFormat() throws {
        let files = try TemporaryFiles()
        let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"><transition event=\"go\" target=\"b\"/></state><state id=\"b\"/></scxml>\n"
        let named = try files.file("door.xml", text)
        let asYAML = try Smrun.run([named, "--send", "go"])
        #expect(asYAML.exited(2) && asYAML.errorText.contains("[wrong-kind]") || asYAML.errorText.contains("[yaml-syntax]"), "\(asYAML.errorText)")
        let asSCXML = try Smrun.run([named, "--input-format", "scxml", "--send", "go"])
        #expect(asSCXML.exited(0), "\(asSCXML.errorText)")
        #expect(asSCXML.lines == ["go: a -> b"])
    }

    @Test func utf16IsRefused() throws {
        let files = try TemporaryFiles()
        let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"/></scxml>"
        let file = try files.file("wide.scxml", Array(text.utf8).flatMap { [$0, 0] })
        let run = try Smrun.run([file])
        run.expectRefusedMachine(file)
        #expect(run.fileDiagnostic(file, "encoding")?.contains("NUL") == true, "\(run.errorText)")
    }
}
