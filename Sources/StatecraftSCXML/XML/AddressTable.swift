import CLibXML2

/// Values by the address of a string in libxml2's dictionary, where each distinct string has
/// one address for as long as the parser lives. A document has a dozen distinct element and
/// attribute names, met hundreds of thousands of times: the first few are found by comparing
/// addresses, without hashing; the rest (only a document with many names has them) by hashing.
struct AddressTable<Value> {
    private static var scannedCount: Int { 16 }
    /// The addresses scanned, apart from their values, so that a scan reads one array of words.
    private var scannedAddresses: [UnsafePointer<xmlChar>] = []
    private var scannedValues: [Value] = []
    private var hashed: [UnsafePointer<xmlChar>: Value] = [:]

    subscript(address: UnsafePointer<xmlChar>) -> Value? {
        let index = scannedAddresses.withUnsafeBufferPointer { addresses in
            var index = 0
            while index < addresses.count && addresses[index] != address { index += 1 }
            return index
        }
        if index < scannedValues.count { return scannedValues[index] }
        return scannedAddresses.count < Self.scannedCount ? nil : hashed[address]
    }

    /// Adds a value for an address that has none.
    mutating func add(_ value: Value, at address: UnsafePointer<xmlChar>) {
        if scannedAddresses.count < Self.scannedCount {
            scannedAddresses.append(address)
            scannedValues.append(value)
        } else {
            hashed[address] = value
        }
    }
}
