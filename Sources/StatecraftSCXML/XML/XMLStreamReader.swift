import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Statecraft
import StatecraftYAML

/// Reads an XML document with libxml2's streaming reader and hands its elements to the SCXML
/// decoder one start tag at a time, keeping no tree: the decoder asks for an element's children
/// as it decodes the element (``nextChild(of:)``), and whatever it does not ask for is read past.
///
/// Securely: no network, no external entities or DTD loading, no XInclude, libxml2's own bounds
/// on (no `XML_PARSE_HUGE`), and a document type declaration refused as soon as it is met, so
/// that no entity of any kind is ever declared, let alone expanded. The depth and node bounds of
/// ``YAMLLimits`` apply to every node read, whether the decoder looks at it or not. The first
/// such problem, or libxml2's first error, stops the read: it is the one diagnostic
/// ``read(_:limits:decode:)`` reports, and what the decoder had found is dropped.
///
/// One reader is used by one decoder on one thread, and none of its methods reaches its
/// properties while another is at them: they go without the runtime's exclusivity checks, which
/// cost more than the rest of the reader's own work per node.
final class XMLStreamReader {
    /// Where an element or attribute of the SCXML standard lives.
    static let scxmlNamespace = "http://www.w3.org/2005/07/scxml"

    private let libxml2: LibXML2
    private let reader: xmlTextReaderPtr
    private let limits: YAMLLimits
    /// The problem that stopped the read, if one did.
    @exclusivity(unchecked) private var failure: Diagnostic?
    /// libxml2's first error, which stands for the read's failure when the reader gives up.
    @exclusivity(unchecked) private var firstLibraryError: Diagnostic?
    @exclusivity(unchecked) private var nodes = 0
    @exclusivity(unchecked) private var elementCount = 0
    /// The open elements, innermost last (an empty element, `<a/>`, is never open).
    @exclusivity(unchecked) private var open: [OpenElement] = []
    /// The text of the element closed last, by its serial.
    @exclusivity(unchecked) private var lastClosed: (serial: Int, text: String?) = (-1, nil)
    /// Attribute values, one `String` and one id (its spelling, ``XMLElement/Attribute/spelling``)
    /// per distinct value: a large document writes a few thousand names many times over.
    @exclusivity(unchecked) private var values = TextInterner()
    /// What each distinct attribute value looks like, by spelling (``ValueShape``), found once
    /// per value rather than once per use.
    @exclusivity(unchecked) private var valueShapes: [ValueShape] = []
    /// Attribute names by their address in the reader's dictionary.
    @exclusivity(unchecked) private var attributeNames = AddressTable<String>()
    /// While recording (``startRecording()``): each start tag read, as numbers that two tags
    /// written alike share (``recordStartTag(_:depth:)``).
    @exclusivity(unchecked) private var recording: [Int]?
    /// The depth of the elements read first in the recording.
    @exclusivity(unchecked) private var recordingDepth = 0
    /// Each distinct element and attribute name read, by the address of its text in the reader's
    /// dictionary: its number in recordings.
    @exclusivity(unchecked) private var nameNumbers = AddressTable<Int>()
    @exclusivity(unchecked) private var nameNumberCount = 0
    /// Element names by their address in the reader's dictionary, with what SCXML says of them.
    @exclusivity(unchecked) private var elementNames = AddressTable<ElementName>()

    /// The ids the states of the document read so far give (`<state>`, `<parallel>`, `<final>`,
    /// `<history>`), so that made-up ids avoid them.
    @exclusivity(unchecked) private(set) var stateIds: Set<String> = []
    /// Text where SCXML has none (only `<data>` and `<content>` hold a value; `<script>`'s is
    /// refused with the element), with the serial of the element that holds it.
    @exclusivity(unchecked) private var misplacedText: [(serial: Int, diagnostic: Diagnostic)] = []

    /// An element name, and the rules of SCXML's element of that name, found once per name (a
    /// class: one reference to copy per element).
    private final class ElementName {
        let name: String
        /// The attributes it takes as an SCXML element, and as one of Statecraft's.
        let scxmlRules: SCXMLVocabulary.AttributeRules
        let statecraftRules: SCXMLVocabulary.AttributeRules
        /// `<state>`, `<parallel>`, `<final>`, `<history>`: its `id` names a state.
        let isState: Bool
        /// `<data>`, `<content>`, `<script>`: SCXML elements whose text is not refused here.
        let mayHoldText: Bool

        init(_ name: String) {
            self.name = name
            scxmlRules = SCXMLVocabulary.AttributeRules(scxmlElement: name)
            statecraftRules = SCXMLVocabulary.AttributeRules(statecraftElement: name)
            isState = ["state", "parallel", "final", "history"].contains(name)
            mayHoldText = ["data", "content", "script"].contains(name)
        }
    }

    /// Of an attribute value: whether it is one token (not empty, no XML whitespace), and
    /// whether it ends in `.` or `*` (an event descriptor that may be a pattern).
    struct ValueShape: OptionSet {
        let rawValue: UInt8
        static let oneToken = ValueShape(rawValue: 1)
        static let endsInDotOrStar = ValueShape(rawValue: 2)

        init(rawValue: UInt8) { self.rawValue = rawValue }

        init(_ bytes: UnsafeRawBufferPointer) {
            var shape: ValueShape = bytes.isEmpty ? [] : .oneToken
            for byte in bytes where XMLWhitespace.contains(byte) {
                shape = []
                break
            }
            if let last = bytes.last, last == UInt8(ascii: ".") || last == UInt8(ascii: "*") { shape.insert(.endsInDotOrStar) }
            self = shape
        }
    }

    private struct OpenElement {
        var serial: Int
        /// Whether its text is refused: an SCXML element other than `<data>`, `<content>`, `<script>`.
        var refusesText: Bool
        var position: SourcePosition
        var name: String
        var text: String?
    }

    private init(libxml2: LibXML2, reader: xmlTextReaderPtr, limits: YAMLLimits) {
        self.libxml2 = libxml2
        self.reader = reader
        self.limits = limits
    }

    // MARK: - Reading a document

    /// Reads `bytes`, handing the root element to `decode`, which reads on through the reader.
    /// The rest of the document is read after `decode` returns, so that a malformed end still
    /// fails the read. Returns what `decode` returned, the diagnostics of text where SCXML has
    /// none, in document order, and the ids the document's states give; or the one problem that
    /// stopped the read.
    static func read<Decoded>(
        _ bytes: [UInt8], limits: YAMLLimits, decode: (XMLStreamReader, XMLElement) -> Decoded
    ) -> Result<(decoded: Decoded, textDiagnostics: [Diagnostic], stateIds: Set<String>), Diagnostic> {
        if let problem = prologProblem(bytes) { return .failure(problem) }
        let libxml2: LibXML2
        switch LibXML2.loaded {
        case .success(let functions): libxml2 = functions
        case .failure(let failure):
            return .failure(
                .error(
                    .unreadableFile,
                    "reading SCXML needs the system's libxml2 (Debian: libxml2), which could not be loaded: \(failure.message)",
                    at: nil))
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOCDATA.rawValue)
        return bytes.withUnsafeBufferPointer { buffer in
            // An empty buffer has no base address; libxml2 reports the empty document itself.
            let empty: [CChar] = [0]
            let start = buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            guard
                let libraryReader = empty.withUnsafeBufferPointer({ emptyBuffer in
                    libxml2.xmlReaderForMemory(start ?? emptyBuffer.baseAddress!, Int32(clamping: buffer.count), nil, nil, options)
                })
            else {
                return .failure(.error(.xmlSyntax, "libxml2 could not start reading the document", at: nil))
            }
            defer { libxml2.xmlFreeTextReader(libraryReader) }
            let stream = XMLStreamReader(libxml2: libxml2, reader: libraryReader, limits: limits)
            // The handler holds the reader unretained: it must live until libxml2's reader is done.
            return withExtendedLifetime(stream) {
                libxml2.xmlTextReaderSetStructuredErrorHandler(
                    libraryReader, { context, error in
                        guard let context, let error else { return }
                        Unmanaged<XMLStreamReader>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
                    }, Unmanaged.passUnretained(stream).toOpaque())
                return stream.run(decode)
            }
        }
    }

    private func run<Decoded>(
        _ decode: (XMLStreamReader, XMLElement) -> Decoded
    ) -> Result<(decoded: Decoded, textDiagnostics: [Diagnostic], stateIds: Set<String>), Diagnostic> {
        var decoded: Decoded?
        if let root = nextElement(deeperThan: -1) { decoded = decode(self, root) }
        while failure == nil, advance() != nil {}
        if let failure { return .failure(failure) }
        guard let decoded else {
            return .failure(.error(.missingKey, "the document is empty; an SCXML document is an <scxml> element", at: nil))
        }
        let textDiagnostics = misplacedText.sorted { $0.serial < $1.serial }.map(\.diagnostic)
        return .success((decoded, textDiagnostics, stateIds))
    }

    /// Looks at the prolog before libxml2 does: libxml2 reads a document type declaration's
    /// internal subset (and checks its entities) before the reader reports it, so a document type
    /// declaration is refused here, at its line, before any of it is parsed. The document must be
    /// in an encoding that writes `<` as ASCII does (UTF-8, as SCXML documents are): a UTF-16 or
    /// EBCDIC one would hide its prolog from this look.
    static func prologProblem(_ bytes: [UInt8]) -> Diagnostic? {
        // No UTF-8 text holds a NUL; a UTF-16 document without a byte-order mark does.
        if bytes.withUnsafeBytes({ buffer in buffer.baseAddress.map { memchr($0, 0, buffer.count) != nil } ?? false }) {
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

    // MARK: - What the decoder asks for

    /// The next child element of `parent`, read past anything deeper; `nil` once `parent` is
    /// closed (at once for an empty element), or when the read failed.
    func nextChild(of parent: XMLElement) -> XMLElement? {
        nextElement(deeperThan: parent.depth)
    }

    /// `element`'s text that is not only blanks (text and CDATA joined), or `nil`. Read once
    /// `nextChild(of: element)` has returned `nil`.
    func text(of element: XMLElement) -> String? {
        lastClosed.serial == element.serial ? lastClosed.text : nil
    }

    /// The table of the attribute values' spellings, which the transitions the decoder builds keep
    /// their names in (``TransitionDefinition``); values read from now on are added to it too.
    func spellingTable() -> SpellingTable {
        values.sharedSpellings()
    }

    /// The text of an attribute value read by this reader, by its spelling.
    func value(_ spelling: Int) -> String {
        values.strings[spelling]
    }

    /// The shape of an attribute value read by this reader (`value.spelling`), or of any text.
    func shape(of value: Named) -> ValueShape {
        if value.spelling >= 0 && value.spelling < valueShapes.count { return valueShapes[value.spelling] }
        var text = value.name
        return text.withUTF8 { ValueShape(UnsafeRawBufferPointer($0)) }
    }

    /// Starts recording the start tags read from now on. One recording at a time: SCXML puts no
    /// `<sc:effect>` in another's body, and one started inside another would end it.
    func startRecording() {
        precondition(recording == nil, "a recording started inside another")
        recording = []
        recordingDepth = open.count
    }

    /// Stops recording, and returns what was recorded: two runs of elements written alike (the
    /// same elements, nested alike, with the same attributes in the same order and values equal
    /// once entities are replaced) give equal recordings, whatever their lines and layout.
    func stopRecording() -> [Int] {
        defer { recording = nil }
        return recording ?? []
    }

    /// The next element at depth `depth + 1` before the element at `depth` that is open closes.
    private func nextElement(deeperThan depth: Int) -> XMLElement? {
        while open.count > depth, let event = advance() {
            if case .start(let element) = event, element.depth == depth + 1 { return element }
        }
        return nil
    }

    /// What ``advance()`` stops at.
    private enum Event {
        case start(XMLElement)
        case end
    }

    /// Reads on to the next start or end tag, through text; `nil` at the end of the document or
    /// when the read fails.
    private func advance() -> Event? {
        guard failure == nil else { return nil }
        while true {
            let status = libxml2.xmlTextReaderRead(reader)
            if status == 0 { return nil }
            guard status == 1 else {
                fail(firstLibraryError ?? .error(.xmlSyntax, "not well-formed XML", at: parserLine))
                return nil
            }
            switch xmlReaderTypes(rawValue: UInt32(libxml2.xmlTextReaderNodeType(reader))) {
            case XML_READER_TYPE_ELEMENT:
                return startElement().map(Event.start)
            case XML_READER_TYPE_END_ELEMENT:
                let closed = open.removeLast()
                lastClosed = (closed.serial, closed.text)
                return .end
            case XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA:
                guard !open.isEmpty else { continue }
                guard countNode() else { return nil }
                addText()
            case XML_READER_TYPE_DOCUMENT_TYPE:
                fail(
                    .error(
                        .unsupported,
                        "a document type declaration (<!DOCTYPE ...>) is not accepted: SCXML needs none, and its entities are how XML readers are attacked",
                        at: parserLine))
                return nil
            case XML_READER_TYPE_ENTITY_REFERENCE, XML_READER_TYPE_ENTITY:
                fail(.error(.unsupported, "entity references are not accepted", at: parserLine))
                return nil
            default:
                break
            }
        }
    }

    // MARK: - Nodes

    private func fail(_ diagnostic: Diagnostic) {
        if failure == nil { failure = diagnostic }
    }

    private var parserLine: SourcePosition? {
        let line = Int(libxml2.xmlTextReaderGetParserLineNumber(reader))
        return line > 0 ? SourcePosition(line: line, column: 0) : nil
    }

    /// Counts a node against the bound; `false` (the read failed) past it.
    private func countNode() -> Bool {
        nodes += 1
        guard nodes > limits.maximumNodes else { return true }
        fail(.error(.limitExceeded, "more than \(limits.maximumNodes) XML nodes (raise it with --max-nodes)", at: parserLine))
        return false
    }

    /// Adds a text node to the innermost open element's text, unless it is only blanks.
    private func addText() {
        guard let value = libxml2.xmlTextReaderConstValue(reader) else { return }
        var length = 0
        var isBlank = true
        while value[length] != 0 {
            if isBlank && !XMLWhitespace.contains(value[length]) { isBlank = false }
            length += 1
        }
        if isBlank { return }
        let text = String(decoding: UnsafeBufferPointer(start: value, count: length), as: UTF8.self)
        let innermost = open.count - 1
        if open[innermost].text == nil && open[innermost].refusesText {
            misplacedText.append(
                (open[innermost].serial, .error(.invalidValue, "<\(open[innermost].name)> holds no text", at: open[innermost].position)))
        }
        open[innermost].text = (open[innermost].text ?? "") + text
    }

    private func startElement() -> XMLElement? {
        let depth = open.count
        if depth + 1 > limits.maximumDepth {
            fail(.error(.limitExceeded, "nesting deeper than \(limits.maximumDepth) levels (raise it with --max-depth)", at: parserLine))
            return nil
        }
        guard countNode() else { return nil }
        guard let node = libxml2.xmlTextReaderCurrentNode(reader) else {
            fail(.error(.xmlSyntax, "not well-formed XML", at: parserLine))
            return nil
        }
        // Read from the node libxml2 has just built, not attribute by attribute through the
        // reader's cursor: namespace declarations are kept apart from the attributes there.
        let startLine = Int(libxml2.xmlGetLineNo(node))
        let namespace = Self.namespace(node.pointee.ns?.pointee.href)
        let elementName = self.elementName(node.pointee.name)
        let name = elementName.name
        let isEmpty = libxml2.xmlTextReaderIsEmptyElement(reader) == 1
        var attributes: [XMLElement.Attribute] = []
        if let first = node.pointee.properties {
            var count = 0
            var attribute: xmlAttrPtr? = first
            while let current = attribute {
                count += 1
                attribute = current.pointee.next
            }
            attributes.reserveCapacity(count)
            attribute = first
            while let current = attribute {
                guard countNode() else { return nil }
                let spelling = value(of: current)
                attributes.append(
                    XMLElement.Attribute(
                        namespace: Self.namespace(current.pointee.ns?.pointee.href), name: attributeName(current.pointee.name),
                        spelling: spelling))
                attribute = current.pointee.next
            }
        }
        if recording != nil { recordStartTag(node, namespace: namespace, attributes: attributes, depth: depth - recordingDepth) }
        let isSCXML = namespace == .scxml || namespace == .none
        let element = XMLElement(
            namespace: namespace, name: name, line: startLine > 0 ? startLine : (parserLine?.line ?? 0), attributes: attributes,
            depth: depth, serial: elementCount, attributeRules: namespace == .statecraft ? elementName.statecraftRules : elementName.scxmlRules,
            reader: self)
        elementCount += 1
        if isSCXML, elementName.isState, let id = element.attribute("id") {
            stateIds.insert(id)
        }
        if !isEmpty {
            open.append(
                OpenElement(serial: element.serial, refusesText: isSCXML && !elementName.mayHoldText, position: element.position, name: name))
        }
        return element
    }

    private func elementName(_ text: UnsafePointer<xmlChar>?) -> ElementName {
        let key = text ?? Self.noName
        if let known = elementNames[key] { return known }
        let made = ElementName(text.map { String(cString: $0) } ?? "")
        elementNames.add(made, at: key)
        return made
    }

    private func attributeName(_ text: UnsafePointer<xmlChar>?) -> String {
        let key = text ?? Self.noName
        if let known = attributeNames[key] { return known }
        let made = text.map { String(cString: $0) } ?? ""
        attributeNames.add(made, at: key)
        return made
    }

    /// Adds a start tag to the recording: its depth in the recording, namespace and name, then
    /// each attribute's namespace, name and value, after a mark (-1). Names are numbered by
    /// their address in the reader's dictionary (below -1), values by their spelling.
    private func recordStartTag(_ node: xmlNodePtr, namespace: XMLNamespace, attributes: [XMLElement.Attribute], depth: Int) {
        recording!.append(contentsOf: [-1, depth, namespaceNumber(namespace), nameNumber(node.pointee.name)])
        var attribute = node.pointee.properties
        for recorded in attributes {
            guard let current = attribute else { break }
            recording!.append(namespaceNumber(recorded.namespace))
            recording!.append(nameNumber(current.pointee.name))
            recording!.append(recorded.spelling)
            attribute = current.pointee.next
        }
    }

    private func nameNumber(_ text: UnsafePointer<xmlChar>?) -> Int {
        let key = text ?? Self.noName
        if let known = nameNumbers[key] { return known }
        let made = -2 - nameNumberCount
        nameNumberCount += 1
        nameNumbers.add(made, at: key)
        return made
    }

    private func namespaceNumber(_ namespace: XMLNamespace) -> Int {
        switch namespace {
        case .none: 0
        case .scxml: 1
        case .statecraft: 2
        case .other(var uri): 3 + uri.withUTF8 { spelling(of: UnsafeRawBufferPointer($0)) }
        }
    }

    /// The key of a missing name, an address no string has.
    private static var noName: UnsafePointer<xmlChar> { UnsafePointer(bitPattern: 1)! }

    /// A namespace URI's text is the declaring element's own (not the dictionary's): compared,
    /// not looked up by address.
    private static func namespace(_ uri: UnsafePointer<xmlChar>?) -> XMLNamespace {
        guard let uri, uri[0] != 0 else { return .none }
        if matches(uri, scxmlNamespace) { return .scxml }
        if matches(uri, SCXMLVocabulary.statecraftNamespace) { return .statecraft }
        return .other(String(cString: uri))
    }

    private static func matches(_ text: UnsafePointer<xmlChar>, _ known: String) -> Bool {
        var known = known
        return known.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { known in
                text.withMemoryRebound(to: CChar.self, capacity: known.count + 1) { text in
                    strncmp(text, known.baseAddress!, known.count) == 0 && text[known.count] == 0
                }
            }
        }
    }

    /// The spelling of an attribute's value, character references and XML's own entities
    /// replaced: the text of its text nodes (one, but for a value libxml2 has built from pieces).
    /// No other entity can be declared, as a document type declaration is refused.
    private func value(of attribute: xmlAttrPtr) -> Int {
        guard let first = attribute.pointee.children else { return spelling(of: UnsafeRawBufferPointer(start: nil, count: 0)) }
        if first.pointee.next == nil, let content = first.pointee.content {
            return spelling(of: UnsafeRawBufferPointer(start: content, count: strlen(content)))
        }
        var value: [UInt8] = []
        var child: xmlNodePtr? = first
        while let current = child {
            if let content = current.pointee.content { value += UnsafeBufferPointer(start: content, count: strlen(content)) }
            child = current.pointee.next
        }
        return value.withUnsafeBytes { spelling(of: $0) }
    }

    /// The spelling of a value, its shape found when it is new.
    private func spelling(of text: UnsafeRawBufferPointer) -> Int {
        let spelling = values.id(of: text)
        if spelling == valueShapes.count { valueShapes.append(ValueShape(text)) }
        return spelling
    }

    // MARK: - Errors

    /// Keeps libxml2's first error, as a diagnostic.
    private func record(_ error: xmlError) {
        guard firstLibraryError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = error.message.map { String(cString: $0) } ?? "malformed XML"
        while message.last?.isWhitespace == true { message.removeLast() }
        let position = error.line > 0 ? SourcePosition(line: Int(error.line), column: Int(max(error.int2, 0))) : nil
        if message.hasPrefix("Excessive depth in document") {
            firstLibraryError = .error(.limitExceeded, "nesting deeper than libxml2's bound of 256 levels", at: position)
        } else if message.contains("Huge input lookup") || message.contains("too long") {
            firstLibraryError = .error(.limitExceeded, "a name, value or text longer than libxml2's bound of 10,000,000 bytes", at: position)
        } else {
            // The hint names a parser option a user of smrun cannot set.
            for hint in [", use XML_PARSE_HUGE option", " use XML_PARSE_HUGE option"] where message.hasSuffix(hint) {
                message.removeLast(hint.count)
            }
            firstLibraryError = .error(.xmlSyntax, "not well-formed XML: \(message)", at: position)
        }
    }
}
