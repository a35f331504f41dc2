import CLibXML2

/// Values by the address of a string in libxml2's dictionary, where each distinct string has
/// one address for as long as the reader lives. A document has a dozen distinct element and
/// attribute names, met hundreds of thousands of times: the first few are found by comparing
/// addresses, without hashing; the rest (only a document with many names has them) by hashing.
struct AddressTable<Value> {
    private static var scannedCount: Int { 16 }
    private var scanned: [(address: UnsafePointer<xmlChar>, value: Value)] = []
    private var hashed: [UnsafePointer<xmlChar>: Value] = [:]

    subscript(address: UnsafePointer<xmlChar>) -> Value? {
        for entry in scanned where entry.address == address { return entry.value }
        return scanned.count < Self.scannedCount ? nil : hashed[address]
    }

    /// Adds a value for an address that has none.
    mutating func add(_ value: Value, at address: UnsafePointer<xmlChar>) {
        if scanned.count < Self.scannedCount {
            scanned.append((address, value))
        } else {
            hashed[address] = value
        }
    }
}
