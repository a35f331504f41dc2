/// A reader that takes the items of one long top-level sequence while the document is still
/// being parsed, some thousands at a time, so that the parser can forget them once they are
/// read: a machine file's 100,000 transitions then cost the memory of a few thousand
/// transitions' nodes, not of all of them.
///
/// Only a sequence that is the value of a key of the root mapping is offered. An item that
/// defines an anchor is not handed over, nor is any item after it, since a later alias may
/// refer into it: those stay in the document, as every item of a non-streamed sequence does.
protocol SequenceItemSink {
    /// Whether the items of the sequence written as the root mapping's `key` (a scalar node of
    /// `document`) are to be handed over; `offset` is where the sequence starts in the source.
    mutating func streamsItems(under key: Int, at offset: Int, of document: YAMLDocument) -> Bool

    /// Reads finished items of the streamed sequence, in file order. Their nodes are dropped
    /// afterwards.
    mutating func take(items: [Int], of document: inout YAMLDocument)
}

/// Streams nothing: the whole document is built.
struct NoSequenceItemSink: SequenceItemSink {
    mutating func streamsItems(under key: Int, at offset: Int, of document: YAMLDocument) -> Bool { false }
    func take(items: [Int], of document: inout YAMLDocument) {}
}
