import CLibYAML
import Statecraft

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads one YAML document with libyaml's event parser into ``YAMLNode``s carrying line and
/// column, within ``LoadLimits``.
///
/// Beyond libyaml it refuses: files over the size limit, encodings other than UTF-8, NUL bytes,
/// duplicate mapping keys (naming both lines), non-scalar keys, nesting past the depth limit
/// (checked as events arrive, so 100,000 `[` stop at the limit instead of costing libyaml
/// quadratic time), and alias expansion past the node limit (a "billion laughs").
package enum YAMLParser {
    /// Parses `bytes`; `nil` for a document with no content (an empty file, or only comments).
    package static func parse(_ bytes: [UInt8], limits: LoadLimits = .default) throws(YAMLError) -> YAMLNode? {
        let document = try parseDocument(bytes, limits: limits)
        return document.root.map { document.node($0) }
    }

    /// Parses `bytes` into the flat form that the machine-file decoder reads.
    package static func parseDocument(_ bytes: [UInt8], limits: LoadLimits = .default) throws(YAMLError) -> YAMLDocument {
        var sink = NoSequenceItemSink()
        return try parseDocument(bytes, limits: limits, streamingTo: &sink)
    }

    /// Parses `bytes`, handing the items of the top-level sequence that `sink` asks for to it
    /// as they end instead of keeping them in the document (``SequenceItemSink``).
    static func parseDocument<Sink: SequenceItemSink>(
        _ bytes: [UInt8], limits: LoadLimits, streamingTo sink: inout Sink
    ) throws(YAMLError) -> YAMLDocument {
        try checkEncoding(bytes, limits: limits)
        // A UTF-8 byte order mark is allowed; libyaml, told the encoding, would read it as text.
        let bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        var builder = DocumentBuilder(limits: limits, bytes: bytes, sink: sink)
        // The builder's sink is the value handed to it, of the type it was handed as.
        defer { if let streamed = builder.sink as? Sink { sink = streamed } }
        let result: Result<YAMLDocument, YAMLError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) != 0 else {
                return .failure(YAMLError(.yamlSyntax, "libyaml could not be initialised", at: nil))
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) != 0 else {
                    return .failure(builder.parserError(parser))
                }
                defer { yaml_event_delete(&event) }
                do throws(YAMLError) {
                    if try builder.handle(&event) { return .success(builder.document) }
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }

    /// Refuses what libyaml would misread or report poorly: size, UTF-16/32, NUL bytes.
    private static func checkEncoding(_ bytes: [UInt8], limits: LoadLimits) throws(YAMLError) {
        if bytes.count > limits.maximumBytes {
            throw YAMLError(
                exceeding: .fileSize, "file is \(bytes.count) bytes, over the limit of \(limits.maximumBytes)", at: nil)
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
            || (bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0))
        {
            throw YAMLError(.encoding, "file is UTF-16 or UTF-32; machine files must be UTF-8", at: nil)
        }
        // memchr: the byte-by-byte search was a sizeable part of a large file's load.
        let nul: Int? = bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, 0, buffer.count) else { return nil }
            return UnsafeRawPointer(found) - base
        }
        if let nul {
            throw YAMLError(
                .encoding, "file contains a NUL byte; machine files are UTF-8 text",
                at: SourcePosition(offset: nul, in: bytes))
        }
    }
}
