import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Statecraft

/// Reads an XML document with libxml2's parser and hands its elements to the SCXML decoder one
/// start tag at a time, keeping no tree: the decoder asks for an element's children as it
/// decodes the element (``nextChild(of:)``), and whatever it does not ask for is read past.
///
/// libxml2 parses the document a chunk at a time (its push parser) and calls the reader for
/// each start tag, end tag and piece of text (its SAX2 interface): no node of a tree is built
/// and freed, and an attribute's value is read where the parser has it. What a chunk gives is
/// queued, and the decoder takes it from the queue, the next chunk parsed when the queue is
/// empty: the decoder pulls, the parser pushes.
///
/// Securely: no network, no external entities or DTD loading, no XInclude, libxml2's own bounds
/// on (no `XML_PARSE_HUGE`), and a document type declaration refused as soon as it is met, so
/// that no entity of any kind is ever declared, let alone expanded. The depth and node bounds of
/// ``LoadLimits`` apply to every node read, whether the decoder looks at it or not. The first
/// such problem in document order, or libxml2's first error, stops the read: it is the one
/// diagnostic ``read(_:limits:decode:)`` reports, and what the decoder had found is dropped.
///
/// One reader is used by one decoder on one thread, and none of its methods reaches its
/// properties while another is at them: they go without the runtime's exclusivity checks, which
/// cost more than the rest of the reader's own work per node.
final class XMLStreamReader {
    /// Where an element or attribute of the SCXML standard lives.
    static let scxmlNamespace = "http://www.w3.org/2005/07/scxml"
    /// How many bytes of the document the parser is given at a time.
    private static var chunkSize: Int { 4 << 10 }
    /// libxml2's bound on a text node, which its tree builder applies (its parser does not):
    /// kept here, as no tree is built.
    private static var maximumTextBytes: Int { 10_000_000 }

    private let libxml2: LibXML2
    /// libxml2's parser, set once it is made (it calls the reader only while parsing a chunk).
    @exclusivity(unchecked) private var parser: xmlParserCtxtPtr?
    private let limits: LoadLimits
    /// The document, and how much of it the parser has been given.
    private let document: UnsafeBufferPointer<UInt8>
    @exclusivity(unchecked) private var fed = 0
    /// Whether the parser has had the whole document, or has stopped on an error (``parserFailed``).
    @exclusivity(unchecked) private var parserDone = false
    @exclusivity(unchecked) private var parserFailed = false
    /// The problem that stopped the read, if one did.
    @exclusivity(unchecked) private var failure: Diagnostic?
    /// libxml2's first error, which stands for the read's failure when the parser gives up.
    @exclusivity(unchecked) private var firstLibraryError: Diagnostic?

    // MARK: - What the parser has read (its callbacks' state)

    @exclusivity(unchecked) private var nodes = 0
    @exclusivity(unchecked) private var elementCount = 0
    /// The elements the parser has open, innermost last.
    @exclusivity(unchecked) private var parsing: [OpenElement] = []
    /// The bytes of the text read since the last tag, comment or processing instruction, which
    /// libxml2's tree would hold as one text node (text, CDATA and references joined), in a
    /// buffer of the reader's own: most runs are a line end and an indent, some 200,000 of them
    /// in a large document, copied without an array's checks.
    @exclusivity(unchecked) private var textRun = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 1)
    @exclusivity(unchecked) private var textRunCount = 0
    @exclusivity(unchecked) private var isInTextRun = false
    @exclusivity(unchecked) private var textRunIsBlank = true
    /// Where the text run's first piece that is not only blanks was read: a text node that
    /// crosses the node bound (``LoadLimits/maximumNodes``) is reported there, not at the tag that ends it.
    @exclusivity(unchecked) private var textRunLine: SourcePosition?
    /// What the parser has read and the decoder has not taken yet.
    private let pending = HandOverQueue<Event>()
    /// The serial of the element whose start tag was queued last, until anything else is: while
    /// the queue is not empty, that start tag is its last event.
    @exclusivity(unchecked) private var lastQueuedStart = -1
    /// Attribute values, one `String` and one id (its spelling, ``XMLElement/Attribute/spelling``)
    /// per distinct value: a large document writes a few thousand names many times over.
    @exclusivity(unchecked) private var values = TextInterner()
    /// What each distinct attribute value looks like, by spelling (``ValueShape``), found once
    /// per value rather than once per use.
    @exclusivity(unchecked) private var valueShapes: [ValueShape] = []
    /// Attribute names by their address in the parser's dictionary.
    @exclusivity(unchecked) private var attributeNames = AddressTable<String>()
    /// Element names by their address in the parser's dictionary, with what SCXML says of them.
    @exclusivity(unchecked) private var elementNames = AddressTable<ElementName>()
    /// Namespaces by the address of their URI in the parser's dictionary.
    @exclusivity(unchecked) private var namespaces = AddressTable<XMLNamespace>()

    // MARK: - What the decoder has taken

    /// How many elements the decoder has taken and not yet seen closed.
    @exclusivity(unchecked) private var openCount = 0
    /// The text of the element closed last, by its serial.
    @exclusivity(unchecked) private var lastClosed: (serial: Int, text: String?) = (-1, nil)
    /// While recording (``startRecording()``): each start tag taken, as numbers that two tags
    /// written alike share (``recordStartTag(_:depth:)``).
    @exclusivity(unchecked) private var recording: [Int]?
    /// The depth of the elements taken first in the recording.
    @exclusivity(unchecked) private var recordingDepth = 0
    /// Each distinct element and attribute name recorded: its number in recordings.
    @exclusivity(unchecked) private var nameNumbers: [String: Int] = [:]

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

    /// An element the parser has open.
    private struct OpenElement {
        var serial: Int
        /// Whether its text is refused: an SCXML element other than `<data>`, `<content>`, `<script>`.
        var refusesText: Bool
        var position: SourcePosition
        var name: String
        var text: String?
    }

    private init(libxml2: LibXML2, document: UnsafeBufferPointer<UInt8>, limits: LoadLimits) {
        self.libxml2 = libxml2
        self.document = document
        self.limits = limits
    }

    deinit {
        textRun.deallocate()
    }

    // MARK: - Reading a document

    /// Reads `bytes`, handing the root element to `decode`, which reads on through the reader.
    /// The rest of the document is read after `decode` returns, so that a malformed end still
    /// fails the read. Returns what `decode` returned, the diagnostics of text where SCXML has
    /// none, in document order, and the ids the document's states give; or the one problem that
    /// stopped the read.
    static func read<Decoded>(
        _ bytes: [UInt8], limits: LoadLimits, decode: (XMLStreamReader, XMLElement) -> Decoded
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
        return bytes.withUnsafeBufferPointer { document in
            let stream = XMLStreamReader(libxml2: libxml2, document: document, limits: limits)
            var handler = Self.callbacks()
            // The parser holds the reader unretained: it must live until the parser is freed.
            return withExtendedLifetime(stream) {
                guard
                    let parser = libxml2.xmlCreatePushParserCtxt(&handler, Unmanaged.passUnretained(stream).toOpaque(), nil, 0, nil)
                else {
                    return .failure(.error(.xmlSyntax, "libxml2 could not start reading the document", at: nil))
                }
                defer { libxml2.xmlFreeParserCtxt(parser) }
                let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue)
                _ = libxml2.xmlCtxtUseOptions(parser, options)
                stream.parser = parser
                return stream.run(decode)
            }
        }
    }

    /// The parser's callbacks: each finds the reader in its context pointer. Text, CDATA and
    /// blanks go to one function, as libxml2's tree builder has them (`XML_PARSE_NOCDATA` clears
    /// the CDATA callback, so that libxml2 gives CDATA as text).
    private static func callbacks() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, localName, prefix, uri, _, _, attributeCount, _, attributes in
            XMLStreamReader.from(context).startElement(localName, prefix: prefix, uri: uri, attributeCount: Int(attributeCount), attributes: attributes)
        }
        handler.endElementNs = { context, _, _, _ in XMLStreamReader.from(context).endElement() }
        let characters: charactersSAXFunc = { context, text, count in XMLStreamReader.from(context).addText(text, count: Int(count)) }
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.comment = { context, _ in XMLStreamReader.from(context).endTextRun() }
        handler.processingInstruction = { context, _, _ in XMLStreamReader.from(context).endTextRun() }
        handler.internalSubset = { context, _, _, _ in
            let reader = XMLStreamReader.from(context)
            reader.fail(
                .error(
                    .unsupported,
                    "a document type declaration (<!DOCTYPE ...>) is not accepted: SCXML needs none, and its entities are how XML readers are attacked",
                    at: reader.parserLine))
        }
        handler.reference = { context, _ in
            let reader = XMLStreamReader.from(context)
            reader.fail(.error(.unsupported, "entity references are not accepted", at: reader.parserLine))
        }
        handler.serror = { context, error in
            guard let context, let error else { return }
            XMLStreamReader.from(context).record(error.pointee)
        }
        return handler
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> XMLStreamReader {
        Unmanaged<XMLStreamReader>.fromOpaque(context!).takeUnretainedValue()
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
        recordingDepth = openCount
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
        while openCount > depth, let event = advance() {
            switch event {
            case .start(let element) where element.depth == depth + 1, .empty(let element) where element.depth == depth + 1:
                return element
            default:
                break
            }
        }
        return nil
    }

    /// What the parser queues for the decoder: a start tag, an end tag with the text of the
    /// element it closes, or both at once for an element that holds nothing (`<a/>`, most of a
    /// large document's), which the decoder then never has open.
    private enum Event {
        case start(XMLElement)
        case end(serial: Int, text: String?)
        case empty(XMLElement)
    }

    /// Takes the next start or end tag, parsing the next chunk when none is queued; `nil` at the
    /// end of the document or when the read fails.
    private func advance() -> Event? {
        while failure == nil {
            if !pending.isEmpty {
                let event = pending.removeFirst()
                switch event {
                case .start(let element):
                    openCount += 1
                    if recording != nil { recordStartTag(element, depth: element.depth - recordingDepth) }
                case .end(let serial, let text):
                    openCount -= 1
                    lastClosed = (serial, text)
                case .empty(let element):
                    if recording != nil { recordStartTag(element, depth: element.depth - recordingDepth) }
                }
                return event
            }
            if parserDone {
                if parserFailed { fail(firstLibraryError ?? .error(.xmlSyntax, "not well-formed XML", at: parserLine)) }
                return nil
            }
            parseChunk()
        }
        return nil
    }

    /// Gives the parser the next chunk of the document, or tells it the document has ended.
    private func parseChunk() {
        guard let parser else { return }
        let count = min(Self.chunkSize, document.count - fed)
        let status: Int32
        if count > 0 {
            let chunk = UnsafeRawPointer(document.baseAddress! + fed).assumingMemoryBound(to: CChar.self)
            fed += count
            status = libxml2.xmlParseChunk(parser, chunk, Int32(count), 0)
        } else {
            status = libxml2.xmlParseChunk(parser, nil, 0, 1)
            parserDone = true
        }
        if status != 0 {
            parserFailed = true
            parserDone = true
        }
    }

    // MARK: - Nodes, as the parser reads them

    private func fail(_ diagnostic: Diagnostic) {
        guard failure == nil else { return }
        failure = diagnostic
        // Nothing more is read: the parser stops at once, even inside a callback.
        if let parser { libxml2.xmlStopParser(parser) }
    }

    private var parserLine: SourcePosition? {
        let line = Int(libxml2.xmlSAX2GetLineNumber(UnsafeMutableRawPointer(parser)))
        return line > 0 ? SourcePosition(line: line, column: 0) : nil
    }

    /// Counts a node against the bound; `false` (the read failed) past it, reported at
    /// `position`, or at the parser's line when that is not given.
    private func countNode(at position: SourcePosition? = nil) -> Bool {
        nodes += 1
        guard nodes > limits.maximumNodes else { return true }
        fail(.limitExceeded(.nodes, "more than \(limits.maximumNodes) XML nodes", at: position ?? parserLine))
        return false
    }

    /// Adds a piece of text to the text run.
    private func addText(_ text: UnsafePointer<xmlChar>, count: Int) {
        guard failure == nil, !parsing.isEmpty else { return }
        if !isInTextRun {
            isInTextRun = true
            textRunIsBlank = true
            textRunCount = 0
        }
        if textRunCount + count > Self.maximumTextBytes {
            let line = Int(libxml2.xmlSAX2GetLineNumber(UnsafeMutableRawPointer(parser)))
            let column = Int(libxml2.xmlSAX2GetColumnNumber(UnsafeMutableRawPointer(parser)))
            fail(
                .error(
                    .limitExceeded, "a name, value or text longer than libxml2's bound of 10,000,000 bytes",
                    at: line > 0 ? SourcePosition(line: line, column: max(column, 0)) : nil))
            return
        }
        let piece = UnsafeBufferPointer(start: text, count: count)
        if textRunIsBlank {
            if let first = piece.firstIndex(where: { !XMLWhitespace.contains($0) }) {
                textRunIsBlank = false
                // The parser's line is where the piece ends: back up over its line ends after the text starts.
                let lineEnds = piece[first...].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
                textRunLine = parserLine.map { SourcePosition(line: max($0.line - lineEnds, 1), column: 0) }
            }
        }
        if textRunCount + count > textRun.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(textRun.count * 2, textRunCount + count), alignment: 1)
            larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: textRun[..<textRunCount]))
            textRun.deallocate()
            textRun = larger
        }
        (textRun.baseAddress! + textRunCount).copyMemory(from: text, byteCount: count)
        textRunCount += count
    }

    /// Ends the text run: text that is not only blanks is a node, and part of the innermost open
    /// element's text.
    private func endTextRun() {
        guard isInTextRun else { return }
        isInTextRun = false
        guard !textRunIsBlank, failure == nil, countNode(at: textRunLine) else { return }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: textRun[..<textRunCount]), as: UTF8.self)
        let innermost = parsing.count - 1
        if parsing[innermost].text == nil && parsing[innermost].refusesText {
            misplacedText.append(
                (parsing[innermost].serial, .error(.invalidValue, "<\(parsing[innermost].name)> holds no text", at: parsing[innermost].position)))
        }
        parsing[innermost].text = (parsing[innermost].text ?? "") + text
    }

    private func endElement() {
        endTextRun()
        guard failure == nil, let closed = parsing.popLast() else { return }
        // An element closed right after its start tag, still queued last, holds nothing: one event.
        if closed.text == nil, lastQueuedStart == closed.serial, !pending.isEmpty {
            guard case .start(let element) = pending.removeLast() else { preconditionFailure("the start tag queued last is not last") }
            pending.append(.empty(element))
        } else {
            pending.append(.end(serial: closed.serial, text: closed.text))
        }
        lastQueuedStart = -1
    }

    private func startElement(
        _ localName: UnsafePointer<xmlChar>, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?, attributeCount: Int,
        attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        endTextRun()
        guard failure == nil else { return }
        let depth = parsing.count
        if depth + 1 > limits.maximumDepth {
            fail(.limitExceeded(.depth, "nesting deeper than \(limits.maximumDepth) levels", at: parserLine))
            return
        }
        guard countNode() else { return }
        let line = Int(libxml2.xmlSAX2GetLineNumber(UnsafeMutableRawPointer(parser)))
        let namespace = self.namespace(uri)
        // A prefix that no declaration binds: libxml2 has reported it, and the name keeps it.
        let elementName = prefix != nil && uri == nil ? ElementName(Self.qualifiedName(prefix!, localName)) : self.elementName(localName)
        var elementAttributes: [XMLElement.Attribute] = []
        if attributeCount > 0, let attributes {
            // Made in place at their count: most elements have one to three attributes.
            var withinBound = true
            elementAttributes = Array(unsafeUninitializedCapacity: attributeCount) { storage, initialized in
                for index in 0..<attributeCount {
                    guard countNode() else {
                        withinBound = false
                        return
                    }
                    let fields = attributes + 5 * index
                    let (attributeName, attributePrefix, attributeURI) = (fields[0]!, fields[1], fields[2])
                    let name =
                        attributePrefix != nil && attributeURI == nil
                        ? Self.qualifiedName(attributePrefix!, attributeName) : self.attributeName(attributeName)
                    (storage.baseAddress! + index).initialize(
                        to: XMLElement.Attribute(
                            namespace: self.namespace(attributeURI), name: name, spelling: value(from: fields[3]!, to: fields[4]!)))
                    initialized += 1
                }
            }
            guard withinBound else { return }
        }
        let isSCXML = namespace == .scxml || namespace == .none
        let element = XMLElement(
            namespace: namespace, name: elementName.name, line: line > 0 ? line : 0, attributes: elementAttributes,
            depth: depth, serial: elementCount, attributeRules: namespace == .statecraft ? elementName.statecraftRules : elementName.scxmlRules,
            reader: self)
        elementCount += 1
        if isSCXML, elementName.isState, let id = element.attribute("id") {
            stateIds.insert(id)
        }
        parsing.append(
            OpenElement(serial: element.serial, refusesText: isSCXML && !elementName.mayHoldText, position: element.position, name: elementName.name))
        pending.append(.start(element))
        lastQueuedStart = element.serial
    }

    private func elementName(_ text: UnsafePointer<xmlChar>) -> ElementName {
        if let known = elementNames[text] { return known }
        let made = ElementName(String(cString: text))
        elementNames.add(made, at: text)
        return made
    }

    private func attributeName(_ text: UnsafePointer<xmlChar>) -> String {
        if let known = attributeNames[text] { return known }
        let made = String(cString: text)
        attributeNames.add(made, at: text)
        return made
    }

    /// `PREFIX:NAME`, the name libxml2's tree gives an element or attribute whose prefix no
    /// declaration binds.
    private static func qualifiedName(_ prefix: UnsafePointer<xmlChar>, _ name: UnsafePointer<xmlChar>) -> String {
        String(cString: prefix) + ":" + String(cString: name)
    }

    /// Adds a start tag to the recording: its depth in the recording, namespace and name, then
    /// each attribute's namespace, name and value, after a mark (-1). Names are numbered
    /// below -1, values by their spelling.
    private func recordStartTag(_ element: XMLElement, depth: Int) {
        recording!.append(contentsOf: [-1, depth, namespaceNumber(element.namespace), nameNumber(element.name)])
        for attribute in element.attributes {
            recording!.append(namespaceNumber(attribute.namespace))
            recording!.append(nameNumber(attribute.name))
            recording!.append(attribute.spelling)
        }
    }

    private func nameNumber(_ name: String) -> Int {
        if let known = nameNumbers[name] { return known }
        let made = -2 - nameNumbers.count
        nameNumbers[name] = made
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

    /// The namespace of a URI, found again by address: libxml2 keeps a namespace's URI in its
    /// dictionary, one address per URI while the parser lives.
    private func namespace(_ uri: UnsafePointer<xmlChar>?) -> XMLNamespace {
        guard let uri, uri[0] != 0 else { return .none }
        if let known = namespaces[uri] { return known }
        let namespace = XMLNamespace(uri: String(cString: uri))
        namespaces.add(namespace, at: uri)
        return namespace
    }

    /// The spelling of an attribute's value, from its first byte to past its last, as the
    /// parser hands it: character references and XML's own entities replaced, but for `&`,
    /// which libxml2 leaves as `&#38;` for its tree builder to replace. No other entity can be
    /// declared, as a document type declaration is refused.
    private func value(from start: UnsafePointer<xmlChar>, to end: UnsafePointer<xmlChar>) -> Int {
        let text = UnsafeRawBufferPointer(start: start, count: end - start)
        guard !text.isEmpty, memchr(text.baseAddress!, Int32(UInt8(ascii: "&")), text.count) != nil else { return spelling(of: text) }
        let escape = Array("&#38;".utf8)
        var value: [UInt8] = []
        value.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if text[index] == UInt8(ascii: "&") && text[index...].starts(with: escape) {
                value.append(UInt8(ascii: "&"))
                index += escape.count
            } else {
                value.append(text[index])
                index += 1
            }
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
