/// Writes a snapshot document as smrun and the Swift machines save it: one member a line, in a
/// fixed order, starting with the members every snapshot has (`format`, `version`, `machine`,
/// `fingerprint`).
struct SnapshotDocumentWriter {
    var bytes: [UInt8] = []

    /// A document that starts with `start`, the first members as ``init(machine:fingerprint:)``
    /// wrote them for the machine (a codec writes them once and keeps them).
    init(continuing start: [UInt8]) {
        bytes.reserveCapacity(2 * start.count)
        bytes.append(contentsOf: start)
    }

    /// A document for the machine `machine` of this fingerprint: its first members written.
    init(machine: String, fingerprint: String) {
        member("format", first: true)
        string(MachineSnapshot.formatName)
        member("version")
        append(String(MachineSnapshot.formatVersion))
        member("machine")
        string(machine)
        member("fingerprint")
        string(fingerprint)
    }

    /// Starts the member `key`: `"key": ` on a new line.
    mutating func member(_ key: String, first: Bool = false) {
        append(first ? "{\n  " : ",\n  ")
        JSONText.appendQuoted(key.utf8, to: &bytes)
        append(": ")
    }

    /// A JSON string.
    mutating func string(_ text: String) {
        JSONText.appendQuoted(text.utf8, to: &bytes)
    }

    /// Text as it is.
    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// The document, closed and ending with a newline.
    mutating func finish() -> [UInt8] {
        append("\n}\n")
        return bytes
    }
}
