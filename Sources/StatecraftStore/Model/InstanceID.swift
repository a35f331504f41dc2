/// An instance's name: the machine it is an instance of, and its key among that machine's.
package struct InstanceID: Hashable, Sendable {
    package var machine: String
    package var key: String

    package init(machine: String, key: String) {
        self.machine = machine
        self.key = key
    }

    /// Whether `key` may name an instance: 1 to 200 characters of `A-Z a-z 0-9 . _ ~ : @ -`,
    /// not starting with `.` (so that no key reads as a path segment such as `..`).
    package static func isValidKey(_ key: String) -> Bool {
        isValidKey(utf8: key.utf8)
    }

    /// ``isValidKey(_:)`` of a key's UTF-8 bytes.
    package static func isValidKey(utf8 bytes: some Collection<UInt8>) -> Bool {
        guard (1...200).contains(bytes.count), bytes.first != UInt8(ascii: ".") else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }
}
