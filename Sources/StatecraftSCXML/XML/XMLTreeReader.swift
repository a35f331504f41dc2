import CLibXML2
import Statecraft
import StatecraftYAML

/// Reads an XML document with libxml2's streaming reader into an ``XMLTree``, securely: no
/// network, no external entities or DTD loading, no XInclude, libxml2's own bounds on (no
/// `XML_PARSE_HUGE`), and a document type declaration refused as soon as it is met, so that no
/// entity of any kind is ever declared, let alone expanded. The depth and node bounds of
/// ``YAMLLimits`` apply as the elements stream by, before any tree is kept.
enum XMLTreeReader {
    /// Where an element or attribute of the SCXML standard lives.
    static let scxmlNamespace = "http://www.w3.org/2005/07/scxml"

    /// libxml2 2.9's initialization is not safe to run from two threads at once (tests and
    /// apps read documents in parallel): a lazily initialized global runs it exactly once.
    private static let libxml2Initialized: Void = xmlInitParser()

    static func read(_ bytes: [UInt8], limits: YAMLLimits) -> Result<XMLTree, Diagnostic> {
        if let problem = prologProblem(bytes) { return .failure(problem) }
        _ = libxml2Initialized
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOCDATA.rawValue)
        return bytes.withUnsafeBufferPointer { buffer -> Result<XMLTree, Diagnostic> in
            // An empty buffer has no base address; libxml2 reports the empty document itself.
            let empty: [CChar] = [0]
            let start = buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            guard
                let reader = empty.withUnsafeBufferPointer({ emptyBuffer in
                    xmlReaderForMemory(start ?? emptyBuffer.baseAddress, Int32(clamping: buffer.count), nil, nil, options)
                })
            else {
                return .failure(.error(.xmlSyntax, "libxml2 could not start reading the document", at: nil))
            }
            defer { xmlFreeTextReader(reader) }
            let errors = ErrorCollector()
            xmlTextReaderSetStructuredErrorHandler(
                reader, { context, error in
                    guard let context, let error else { return }
                    Unmanaged<ErrorCollector>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
                }, Unmanaged.passUnretained(errors).toOpaque())
            // The handler holds the collector unretained: it must live until the reader is done.
            return withExtendedLifetime(errors) {
                var walk = Walk(reader: reader, limits: limits)
                let result = walk.run()
                if case .failure(let diagnostic) = result, diagnostic.code == .xmlSyntax, let first = errors.first {
                    return .failure(first)
                }
                return result
            }
        }
    }

    /// Looks at the prolog before libxml2 does: libxml2 reads a document type declaration's
    /// internal subset (and checks its entities) before the reader reports it, so a document type
    /// declaration is refused here, at its line, before any of it is parsed. The document must be
    /// in an encoding that writes `<` as ASCII does (UTF-8, as SCXML documents are): a UTF-16 or
    /// EBCDIC one would hide its prolog from this look.
    static func prologProblem(_ bytes: [UInt8]) -> Diagnostic? {
        // No UTF-8 text holds a NUL; a UTF-16 document without a byte-order mark does.
        if bytes.contains(0) {
            return .error(.encoding, "an SCXML document is UTF-8 text, and this one holds a NUL byte (is it UTF-16?)", at: nil)
        }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        func starts(_ text: String) -> Bool { bytes[index...].starts(with: text.utf8) }
        func skip(past end: String) {
            while index < bytes.count && !starts(end) {
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
            index += end.utf8.count
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\n"):
                line += 1
                index += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "<"):
                if starts("<?") {
                    skip(past: "?>")
                } else if starts("<!--") {
                    skip(past: "-->")
                } else if starts("<!DOCTYPE") {
                    return .error(
                        .unsupported,
                        "a document type declaration (<!DOCTYPE ...>) is not accepted: SCXML needs none, and its entities are how XML readers are attacked",
                        at: SourcePosition(line: line, column: 0))
                } else {
                    return nil
                }
            default:
                return .error(.encoding, "an SCXML document is UTF-8 text starting with '<' (an XML declaration, a comment or <scxml>)", at: nil)
            }
        }
        return nil
    }

    /// The first error libxml2 reports, as a diagnostic.
    private final class ErrorCollector {
        var first: Diagnostic?

        func record(_ error: xmlError) {
            guard first == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            var message = error.message.map { String(cString: $0) } ?? "malformed XML"
            while message.last?.isWhitespace == true { message.removeLast() }
            let position = error.line > 0 ? SourcePosition(line: Int(error.line), column: Int(max(error.int2, 0))) : nil
            if message.hasPrefix("Excessive depth in document") {
                first = .error(.limitExceeded, "nesting deeper than libxml2's bound of 256 levels", at: position)
            } else if message.contains("Huge input lookup") || message.contains("too long") {
                first = .error(.limitExceeded, "a name, value or text longer than libxml2's bound of 10,000,000 bytes", at: position)
            } else {
                // The hint names a parser option a user of smrun cannot set.
                for hint in [", use XML_PARSE_HUGE option", " use XML_PARSE_HUGE option"] where message.hasSuffix(hint) {
                    message.removeLast(hint.count)
                }
                first = .error(.xmlSyntax, "not well-formed XML: \(message)", at: position)
            }
        }
    }

    /// One pass of the reader over the document.
    private struct Walk {
        let reader: xmlTextReaderPtr
        let limits: YAMLLimits
        var elements: [XMLElement] = []
        /// The open elements, innermost last.
        var open: [Int] = []
        var nodes = 0
        /// Element and attribute names and namespaces come from the reader's dictionary, one
        /// pointer per distinct string: each is turned into a `String` once.
        var interned: [UnsafePointer<xmlChar>: String] = [:]
        var namespaces: [UnsafePointer<xmlChar>: XMLNamespace] = [:]

        init(reader: xmlTextReaderPtr, limits: YAMLLimits) {
            self.reader = reader
            self.limits = limits
        }

        mutating func run() -> Result<XMLTree, Diagnostic> {
            while true {
                let status = xmlTextReaderRead(reader)
                if status == 0 { break }
                guard status == 1 else { return .failure(.error(.xmlSyntax, "not well-formed XML", at: line)) }
                if let problem = visit() { return .failure(problem) }
            }
            guard !elements.isEmpty else {
                return .failure(.error(.missingKey, "the document is empty; an SCXML document is an <scxml> element", at: nil))
            }
            return .success(XMLTree(elements: elements))
        }

        private var line: SourcePosition? {
            let line = Int(xmlTextReaderGetParserLineNumber(reader))
            return line > 0 ? SourcePosition(line: line, column: 0) : nil
        }

        private mutating func visit() -> Diagnostic? {
            switch xmlReaderTypes(rawValue: UInt32(xmlTextReaderNodeType(reader))) {
            case XML_READER_TYPE_ELEMENT:
                return openElement()
            case XML_READER_TYPE_END_ELEMENT:
                open.removeLast()
            case XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA:
                guard let parent = open.last else { return nil }
                let text = string(xmlTextReaderConstValue(reader))
                if !XMLWhitespace.isBlank(text) {
                    elements[parent].text = (elements[parent].text ?? "") + text
                }
                return countNode()
            case XML_READER_TYPE_DOCUMENT_TYPE:
                return .error(
                    .unsupported,
                    "a document type declaration (<!DOCTYPE ...>) is not accepted: SCXML needs none, and its entities are how XML readers are attacked",
                    at: line)
            case XML_READER_TYPE_ENTITY_REFERENCE, XML_READER_TYPE_ENTITY:
                return .error(.unsupported, "entity references are not accepted", at: line)
            default:
                break
            }
            return nil
        }

        private mutating func countNode() -> Diagnostic? {
            nodes += 1
            guard nodes > limits.maximumNodes else { return nil }
            return .error(.limitExceeded, "more than \(limits.maximumNodes) XML nodes (raise it with --max-nodes)", at: line)
        }

        private mutating func openElement() -> Diagnostic? {
            let depth = Int(xmlTextReaderDepth(reader)) + 1
            if depth > limits.maximumDepth {
                return .error(.limitExceeded, "nesting deeper than \(limits.maximumDepth) levels (raise it with --max-depth)", at: line)
            }
            if let problem = countNode() { return problem }
            let node = xmlTextReaderCurrentNode(reader)
            let startLine = node.map { Int(xmlGetLineNo($0)) } ?? 0
            var element = XMLElement(
                namespace: namespace(xmlTextReaderConstNamespaceUri(reader)), name: internedString(xmlTextReaderConstLocalName(reader)),
                line: startLine > 0 ? startLine : (line?.line ?? 0))
            let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
            element.attributes.reserveCapacity(Int(xmlTextReaderAttributeCount(reader)))
            while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                if xmlTextReaderIsNamespaceDecl(reader) == 1 { continue }
                if let problem = countNode() { return problem }
                element.attributes.append(
                    XMLElement.Attribute(
                        namespace: namespace(xmlTextReaderConstNamespaceUri(reader)),
                        name: internedString(xmlTextReaderConstLocalName(reader)),
                        value: string(xmlTextReaderConstValue(reader))))
            }
            xmlTextReaderMoveToElement(reader)
            let index = elements.count
            if let parent = open.last { elements[parent].children.append(index) }
            elements.append(element)
            if !isEmpty { open.append(index) }
            return nil
        }

        private mutating func internedString(_ text: UnsafePointer<xmlChar>?) -> String {
            guard let text else { return "" }
            if let known = interned[text] { return known }
            let made = String(cString: text)
            interned[text] = made
            return made
        }

        private mutating func namespace(_ uri: UnsafePointer<xmlChar>?) -> XMLNamespace {
            guard let uri else { return .none }
            if let known = namespaces[uri] { return known }
            let made = XMLNamespace(uri: String(cString: uri))
            namespaces[uri] = made
            return made
        }

        private func string(_ text: UnsafePointer<xmlChar>?) -> String {
            text.map { String(cString: $0) } ?? ""
        }
    }
}
