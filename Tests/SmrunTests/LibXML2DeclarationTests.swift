import Foundation
import Testing

/// Statecraft declares the part of libxml2 it reads in its own header (Sources/CLibXML2/shim.h,
/// as libxml2 is loaded on use rather than linked): its structs must lay out as the system's
/// libxml2 headers lay them out, and its constants must have libxml2's values, or the SCXML
/// reader would read the wrong fields of what libxml2 built.
@Suite struct LibXML2DeclarationTests {
    static let pkgConfig = ExternalTool(name: "pkg-config", install: "make test (or: apt-get install pkg-config)")

    @Test func structsAndConstantsMatchTheSystemHeaders() throws {
        let flags = try Self.pkgConfig.run(["--cflags", "libxml-2.0"])
        try #require(flags.status == 0, "libxml2's headers are missing (make test installs libxml2-dev): \(flags.errorText)")
        let systemFlags = flags.text.split(whereSeparator: \.isWhitespace).map(String.init)
        let declared = try Self.layout(including: "\"\(Paths.packageRoot.path)/Sources/CLibXML2/shim.h\"", flags: [])
        let system = try Self.layout(including: "<libxml/parser.h>", flags: systemFlags)
        #expect(declared.count == 51, "\(declared)")
        #expect(declared == system)
    }

    /// Offsets and sizes of the fields Statecraft declares, and the constants' values, as a C
    /// program built with `header` prints them.
    private static func layout(including header: String, flags: [String]) throws -> [String] {
        let files = try TemporaryFiles()
        let fields = [
            ("xmlError", ["domain", "code", "message", "level", "file", "line", "str1", "str2", "str3", "int1", "int2", "ctxt", "node"]),
            (
                "xmlSAXHandler",
                [
                    "internalSubset", "isStandalone", "hasInternalSubset", "hasExternalSubset", "resolveEntity", "getEntity", "entityDecl",
                    "notationDecl", "attributeDecl", "elementDecl", "unparsedEntityDecl", "setDocumentLocator", "startDocument",
                    "endDocument", "startElement", "endElement", "reference", "characters", "ignorableWhitespace",
                    "processingInstruction", "comment", "warning", "error", "fatalError", "getParameterEntity", "cdataBlock",
                    "externalSubset", "initialized", "_private", "startElementNs", "endElementNs", "serror",
                ]
            ),
        ]
        let constants = ["XML_PARSE_NONET", "XML_PARSE_NOCDATA", "XML_ERR_ERROR", "XML_SAX2_MAGIC"]
        var lines = ["#include \(header)", "#include <stddef.h>", "#include <stdio.h>", "int main(void) {"]
        for (type, names) in fields {
            lines.append("    printf(\"sizeof \(type) %zu\\n\", sizeof(\(type)));")
            for name in names { lines.append("    printf(\"\(type).\(name) %zu\\n\", offsetof(\(type), \(name)));") }
        }
        for constant in constants { lines.append("    printf(\"\(constant) %d\\n\", (int)\(constant));") }
        lines += ["    return 0;", "}", ""]
        let source = try files.file("layout.c", lines.joined(separator: "\n"))
        let program = files.path("layout")
        let build = try ExternalTool.clang.run(flags + ["-Wno-nullability-completeness", "-o", program, source])
        try #require(build.status == 0, "\(build.errorText)")
        let child = try Subprocess(program, [], directory: Paths.packageRoot.path)
        let output = Subprocess.drain(child.output)
        child.feed(Data())
        let termination = child.wait(timeout: .seconds(60))
        try #require(termination?.status == 0)
        return String(decoding: output.wait(), as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
