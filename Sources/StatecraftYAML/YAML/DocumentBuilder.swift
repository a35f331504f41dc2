import CLibYAML
import Statecraft
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns libyaml events into a ``YAMLDocument``, enforcing the limits as it goes, and hands the
/// items of a top-level sequence to `sink` as they end when it asks for them.
///
/// The sink is an existential, not a generic parameter: a generic builder's copies and
/// destruction made its type's metadata at run time, which cost a small machine's start-up
/// 160,000 instructions, where a call through the existential per batch of items costs nothing
/// that shows.
struct DocumentBuilder {
    /// An open sequence or mapping, whose children so far are `pending[start...]` (a mapping's
    /// keys and values alternating).
    private struct Frame {
        var isMapping: Bool
        /// Whether the collection is written in flow style, `{...}` or `[...]`.
        var isFlow: Bool
        var start: Int
        var position: SourcePosition
        var anchor: String?
        var nodesBefore: Int
        /// For a mapping of many keys, while every key is ASCII: each key's interned id, to the
        /// key's node. For the rest a scan of the keys costs less than a dictionary.
        var keyNodes: [Int: Int] = [:]
        /// Once a key is not ASCII: each key's node, by its text as a `String` (whose equality
        /// is canonical equivalence, which bytes do not give).
        var keysByText: [String: Int]?
        /// The key nodes of the entries a merge key (`<<`) brought in: a key written in the
        /// mapping itself replaces one of them instead of being a duplicate.
        var mergedKeys: Set<Int> = []
        /// Where this mapping's merge key is, once it has one.
        var mergeKey: SourcePosition?
        /// Whether the next node is the value of a merge key.
        var awaitsMergeValue = false
        /// Whether this sequence's items go to the sink instead of into the document.
        var streamsItems = false

        static let keysScanned = 8
    }

    let limits: LoadLimits
    let bytes: [UInt8]
    private(set) var document: YAMLDocument
    private var stack: [Frame] = []
    /// The children of the open collections, innermost last.
    private var pending: [Int] = []
    private var anchors: [String: (node: Int, nodes: Int, height: Int)] = [:]
    private var nodeCount = 0
    private var documents = 0
    /// Height (nesting levels) of the subtree just finished, for anchors.
    private var heights: [Int] = [0]
    /// Anchors defined so far, redefinitions included.
    private var anchorsDefined = 0
    /// Takes the items of a streamed sequence.
    private(set) var sink: any SequenceItemSink
    /// How large the document was when the streamed sequence opened: each batch of items handed
    /// over is dropped back to it.
    private var streamStart: (nodes: Int, children: Int, text: Int, anchorsDefined: Int) = (0, 0, 0, 0)
    /// The streamed items parsed and not yet handed over.
    private var streamedItems: [Int] = []
    /// Items are handed over in batches: parsing a batch and then decoding it keeps each in the
    /// cache, where handing over each item as it ends made decoding's name lookups miss it.
    static var itemsPerBatch: Int { 4096 }

    init(limits: LoadLimits, bytes: [UInt8], sink: any SequenceItemSink) {
        self.limits = limits
        self.bytes = bytes
        self.sink = sink
        document = YAMLDocument(source: bytes)
    }

    static func position(_ mark: yaml_mark_t) -> SourcePosition {
        SourcePosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    /// A diagnostic for libyaml's own error, with the most useful position it offers.
    func parserError(_ parser: yaml_parser_t) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "syntax error"
        if parser.error == YAML_READER_ERROR {
            var offset = Int(parser.problem_offset)
            // libyaml points at the byte that broke a multi-byte sequence; report its first byte.
            if offset <= bytes.count {
                var start = offset
                while start > 0, offset - start < 3, bytes[start - 1] & 0xC0 == 0x80 { start -= 1 }
                if start > 0, bytes[start - 1] >= 0xC0 { offset = start - 1 }
            }
            let what = problem == "invalid leading UTF-8 octet" || problem.contains("UTF-8") ? "invalid UTF-8" : problem
            let position = SourcePosition(offset: offset, in: bytes)
            // The byte itself, in hexadecimal, where it is: an offset into the file reads as a byte.
            let byte = offset < bytes.count ? "byte 0x\(bytes[offset] < 0x10 ? "0" : "")\(String(bytes[offset], radix: 16, uppercase: true)) " : ""
            return YAMLError(
                .encoding, "\(what): \(byte)at line \(position.line), column \(position.column); machine files must be UTF-8 text", at: position)
        }
        let mark = parser.problem_mark
        let position = Self.position(mark)
        let index = Int(mark.index)
        if index < bytes.count, bytes[index] == UInt8(ascii: "\t") {
            return YAMLError(.yamlSyntax, "tab character where YAML expects indentation or a value; indent with spaces", at: position)
        }
        var message = problem
        let context = parser.context.map { String(cString: $0) }
        if let context {
            message = "\(problem) \(context) at line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1)"
        }
        message += YAMLSyntaxHint.hint(
            problem: problem, context: context, problemLine: Int(mark.line),
            contextLine: context == nil ? nil : Int(parser.context_mark.line),
            contextColumn: context == nil ? nil : Int(parser.context_mark.column), in: bytes)
        return YAMLError(.yamlSyntax, message, at: position)
    }

    /// Handles one event; true at the end of the stream.
    mutating func handle(_ event: inout yaml_event_t) throws(YAMLError) -> Bool {
        let position = Self.position(event.start_mark)
        switch event.type {
        case YAML_STREAM_START_EVENT, YAML_DOCUMENT_END_EVENT:
            return false
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                throw YAMLError(.yamlSyntax, "a machine file holds one YAML document; found a second ('---')", at: position)
            }
            return false
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_ALIAS_EVENT:
            let name = String(cString: event.data.alias.anchor)
            guard let anchored = anchors[name] else {
                throw YAMLError(.yamlSyntax, "alias '*\(name)' refers to no anchor", at: position)
            }
            try count(anchored.nodes, at: position)
            if stack.count + anchored.height > limits.maximumDepth {
                throw depthError(at: position)
            }
            try add(anchored.node, height: anchored.height)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            // By length, so that an escaped NUL survives.
            let value = UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length))
            let style: YAMLScalar.Style
            switch scalar.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            try count(1, at: position)
            let index = document.nodes.count
            if let tag = scalar.tag { document.tags[index] = String(cString: tag) }
            let start = Int(event.start_mark.index)
            let isInSource = style == .plain && Self.isWritten(value, at: start, to: Int(event.end_mark.index), in: bytes)
            document.nodes.append(
                YAMLDocument.Node(
                    kind: .scalar, style: style, isASCII: Self.isASCII(value), hasTag: scalar.tag != nil, isInSource: isInSource,
                    isFlow: false, position: position, start: isInSource ? start : document.text.count, count: value.count))
            if !isInSource { document.text.append(contentsOf: value) }
            try add(index, height: 0, anchor: scalar.anchor.map { String(cString: $0) }, nodes: 1)
        case YAML_SEQUENCE_START_EVENT:
            try open(at: position)
            var frame = Frame(
                isMapping: false, isFlow: event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE, start: pending.count,
                position: position,
                anchor: event.data.sequence_start.anchor.map { String(cString: $0) }, nodesBefore: nodeCount)
            if stack.count == 1, stack[0].isMapping, !stack[0].awaitsMergeValue, (pending.count - stack[0].start) % 2 == 1,
                frame.anchor == nil, sink.streamsItems(under: pending[pending.count - 1], at: Int(event.start_mark.index), of: document)
            {
                frame.streamsItems = true
                streamStart = (document.nodes.count, document.children.count, document.text.count, anchorsDefined)
            }
            stack.append(frame)
        case YAML_MAPPING_START_EVENT:
            try open(at: position)
            stack.append(
                Frame(
                    isMapping: true, isFlow: event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE, start: pending.count,
                    position: position,
                    anchor: event.data.mapping_start.anchor.map { String(cString: $0) }, nodesBefore: nodeCount))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let height = heights.removeLast() + 1
            let frame = stack.removeLast()
            if frame.streamsItems { handOverStreamedItems(dropping: true) }
            let children = pending.count - frame.start
            let index = document.nodes.count
            document.nodes.append(
                YAMLDocument.Node(
                    kind: frame.isMapping ? .mapping : .sequence, style: .plain, isASCII: true, hasTag: false, isInSource: false,
                    isFlow: frame.isFlow, position: frame.position, start: document.children.count, count: frame.isMapping ? children / 2 : children))
            document.children.append(contentsOf: pending[frame.start...])
            pending.removeSubrange(frame.start...)
            try add(index, height: height, anchor: frame.anchor, nodes: nodeCount - frame.nodesBefore)
        default:
            return false
        }
        return false
    }

    /// Whether a scalar's `value` is the source's bytes between its marks, as a plain scalar on
    /// one line is: then the document reads it there instead of copying it. A value libyaml
    /// changed (a folded line break) differs from them, and is copied.
    ///
    /// This and ``keysEqual(_:_:in:)`` are static: an instance method called from the builder's
    /// mutating ones copied the whole builder, its sink included, on every scalar and key.
    private static func isWritten(_ value: UnsafeBufferPointer<UInt8>, at start: Int, to end: Int, in bytes: [UInt8]) -> Bool {
        guard let base = value.baseAddress, end - start == value.count, start >= 0, end <= bytes.count else { return false }
        return bytes.withUnsafeBytes { memcmp($0.baseAddress! + start, base, value.count) == 0 }
    }

    private func depthError(at position: SourcePosition) -> YAMLError {
        YAMLError(exceeding: .depth, "nesting deeper than \(limits.maximumDepth) levels", at: position)
    }

    private mutating func open(at position: SourcePosition) throws(YAMLError) {
        if stack.count >= limits.maximumDepth { throw depthError(at: position) }
        try count(1, at: position)
        heights.append(0)
    }

    private mutating func count(_ nodes: Int, at position: SourcePosition) throws(YAMLError) {
        nodeCount += nodes
        if nodeCount > limits.maximumNodes {
            throw YAMLError(
                exceeding: .nodes,
                "document expands to more than \(limits.maximumNodes) nodes (aliases counted each time they are used)",
                at: position)
        }
    }

    /// Adds a finished node to the open collection, or makes it the root.
    private mutating func add(_ node: Int, height: Int, anchor: String? = nil, nodes: Int = 0) throws(YAMLError) {
        if let anchor {
            anchors[anchor] = (node, nodes, height)
            anchorsDefined += 1
        }
        heights[heights.count - 1] = max(heights[heights.count - 1], height)
        guard let top = stack.indices.last else {
            document.root = node
            return
        }
        if stack[top].streamsItems {
            guard anchorsDefined == streamStart.anchorsDefined else {
                // A later alias may refer into this item: it and the rest stay in the document,
                // and so do the nodes of the items before it, above which it lies.
                handOverStreamedItems(dropping: false)
                stack[top].streamsItems = false
                pending.append(node)
                return
            }
            streamedItems.append(node)
            if streamedItems.count == Self.itemsPerBatch { handOverStreamedItems(dropping: true) }
            return
        }
        if stack[top].awaitsMergeValue {
            stack[top].awaitsMergeValue = false
            try merge(node, into: top)
            return
        }
        if stack[top].isMapping && (pending.count - stack[top].start) % 2 == 0 {
            let key = document[node]
            guard key.kind == .scalar else {
                throw YAMLError(
                    .wrongKind, "a mapping key must be a scalar, not \(document.kindDescription(node))", at: key.position)
            }
            if key.style == .plain && !key.hasTag && document.text(of: node, is: "<<") {
                if let first = stack[top].mergeKey {
                    throw YAMLError(
                        .duplicateKey, "duplicate merge key '<<' (first at line \(first.line), again at line \(key.position.line))",
                        at: key.position)
                }
                stack[top].mergeKey = key.position
                stack[top].awaitsMergeValue = true
                return
            }
            if let first = earlierKey(of: node, in: top, recording: true) {
                guard stack[top].mergedKeys.remove(first) != nil else {
                    throw YAMLError(
                        .duplicateKey,
                        "duplicate key '\(document.string(node))' (first at line \(document[first].position.line), again at line \(key.position.line))",
                        at: key.position)
                }
                // Written in the mapping itself: it replaces the entry the merge brought in.
                let start = stack[top].start
                if let index = stride(from: start, to: pending.count, by: 2).first(where: { pending[$0] == first }) {
                    pending.removeSubrange(index...(index + 1))
                }
            }
        }
        pending.append(node)
    }

    /// Hands the streamed items parsed so far to the sink, and then, when `dropping`, drops
    /// their nodes, children and text. A dropped node's tag may stay in ``YAMLDocument/tags``:
    /// it is read only for a node that has one (``YAMLDocument/Node/hasTag``), and replaced
    /// when a later tagged node takes its index.
    private mutating func handOverStreamedItems(dropping: Bool) {
        if !streamedItems.isEmpty { sink.take(items: streamedItems, of: &document) }
        streamedItems.removeAll(keepingCapacity: true)
        guard dropping else { return }
        document.nodes.removeLast(document.nodes.count - streamStart.nodes)
        document.children.removeLast(document.children.count - streamStart.children)
        document.text.removeLast(document.text.count - streamStart.text)
    }

    /// YAML 1.1's merge key (`<<: *defaults`, `<<: [*a, *b]`): adds the entries of a mapping, or
    /// of each mapping of a list, whose keys the mapping `stack[top]` does not have yet. Keys
    /// written in the mapping win, before or after the merge key; among merged mappings, the
    /// earlier wins.
    private mutating func merge(_ value: Int, into top: Int) throws(YAMLError) {
        let sources: [Int]
        switch document[value].kind {
        case .mapping: sources = [value]
        case .sequence: sources = Array(document.items(value))
        case .scalar: sources = [value]
        }
        for source in sources {
            guard document[source].kind == .mapping else {
                throw YAMLError(
                    .wrongKind,
                    "a merge key ('<<') takes a mapping or a list of mappings, not \(document.kindDescription(source))",
                    at: document[source].position)
            }
            for entry in document.entries(source) where earlierKey(of: entry.key, in: top, recording: false) == nil {
                _ = earlierKey(of: entry.key, in: top, recording: true)
                pending.append(entry.key)
                pending.append(entry.value)
                stack[top].mergedKeys.insert(entry.key)
            }
        }
    }

    /// The node of an earlier key of the mapping `stack[top]` equal to `key`, if any. When
    /// `recording`, `key` is about to be added, and is remembered in its place.
    private mutating func earlierKey(of key: Int, in top: Int, recording: Bool) -> Int? {
        let start = stack[top].start
        let keys = stride(from: start, to: pending.count, by: 2)
        if (pending.count - start) / 2 < Frame.keysScanned {
            return keys.first { Self.keysEqual(pending[$0], key, in: document) }.map { pending[$0] }
        }
        if stack[top].keysByText == nil && document[key].isASCII {
            if stack[top].keyNodes.isEmpty {
                for index in keys { stack[top].keyNodes[keyID(pending[index])] = pending[index] }
            }
            let id = keyID(key)
            return recording ? stack[top].keyNodes.updateValue(key, forKey: id) : stack[top].keyNodes[id]
        }
        if stack[top].keysByText == nil {
            var nodes: [String: Int] = [:]
            for index in keys { nodes[document.string(pending[index])] = pending[index] }
            stack[top].keysByText = nodes
        }
        let text = document.string(key)
        return recording ? stack[top].keysByText!.updateValue(key, forKey: text) : stack[top].keysByText![text]
    }

    /// Whether two keys are equal as strings: ASCII ones by their bytes.
    private static func keysEqual(_ a: Int, _ b: Int, in document: YAMLDocument) -> Bool {
        let (first, second) = (document[a], document[b])
        guard first.isASCII && second.isASCII else { return document.string(a) == document.string(b) }
        return first.count == second.count
            && (first.count == 0
                || document.withText(of: a) { a in document.withText(of: b) { memcmp(a.baseAddress!, $0.baseAddress!, a.count) == 0 } })
    }

    /// The interned id of an ASCII key's text.
    private mutating func keyID(_ key: Int) -> Int {
        let node = document[key]
        return document.buffer(of: node).withUnsafeBytes { text in
            document.spellings.id(of: UnsafeRawBufferPointer(rebasing: text[node.start..<(node.start + node.count)]))
        }
    }

    /// Whether every byte is below 0x80, checked eight at a time.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var bits: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            bits |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            bits |= UInt64(base[index])
            index += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }
}
