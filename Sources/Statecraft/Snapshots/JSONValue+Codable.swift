// `Codable` values as ``JSONValue`` and back, for the snapshots of typed machines, whose
// state and context are the program's own `Codable` types. The engine has no Foundation, so this
// is a small encoder and decoder of its own, following `JSONEncoder`'s defaults where a choice
// shows: keyed containers are objects (members in the order encoded), unkeyed ones arrays, `nil`
// in a keyed container is left out unless encoded with `encodeNil`. Doubles and floats that are
// not finite are the strings `"Infinity"`, `"-Infinity"` and `"NaN"`, as in smrun's snapshots.

extension JSONValue {
    /// `value` encoded as JSON.
    static func encoding<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = ValueEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.json
    }

    /// A `T` decoded from this JSON value; throws `DecodingError`, or what `T`'s decoding throws.
    func decoded<T: Decodable>(as _: T.Type) throws -> T {
        try T(from: ValueDecoder(self, codingPath: []))
    }

    /// The value as JSON text: compact, but with a space after `:` and `,` in objects and arrays
    /// (a snapshot document's one-line values).
    var spacedJSONText: String {
        switch self {
        case .array(let items): "[" + items.map(\.spacedJSONText).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.map { JSONText.quoted($0.key) + ": " + $0.value.spacedJSONText }.joined(separator: ", ") + "}"
        default: jsonText
        }
    }

    /// A JSON number for a double or a float, or the string for one that is not finite.
    fileprivate static func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> JSONValue {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        return .number(String(value))
    }
}

/// A coding path as a message shows it: `state.fetch.taskID`, `context.stops[2]`.
func codingPathText(_ path: [any CodingKey], under root: String) -> String {
    var text = root
    for key in path {
        if let index = key.intValue, key.stringValue == String(index) {
            text += "[\(index)]"
        } else {
            text += "." + key.stringValue
        }
    }
    return text
}

/// A key of an unkeyed container's element, for coding paths.
private struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String
    init(_ index: Int) {
        intValue = index
        stringValue = String(index)
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

// MARK: - Encoding

/// What an encoder or container has been given: a value, or an object or array whose members
/// may still be written to (containers and super-encoders keep a reference).
private enum Node {
    case value(JSONValue)
    case object(ObjectNode)
    case array(ArrayNode)
    case encoder(ValueEncoder)

    var json: JSONValue {
        switch self {
        case .value(let json): json
        case .object(let object): .object(zip(object.keys, object.values).map { ($0, $1.json) })
        case .array(let array): .array(array.items.map(\.json))
        case .encoder(let encoder): encoder.json
        }
    }
}

private final class ObjectNode {
    var keys: [String] = []
    var values: [Node] = []

    /// Sets `key` to `node`; a key encoded twice keeps its first place and its last value.
    func set(_ key: String, _ node: Node) {
        if let index = keys.firstIndex(of: key) {
            values[index] = node
        } else {
            keys.append(key)
            values.append(node)
        }
    }
}

private final class ArrayNode {
    var items: [Node] = []
}

private final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var node: Node?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    /// What was encoded; an encoder given nothing is an empty object, as `JSONEncoder`'s is.
    var json: JSONValue { node?.json ?? .object([]) }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: ObjectNode
        if case .object(let existing) = node {
            object = existing
        } else {
            object = ObjectNode()
            node = .object(object)
        }
        return KeyedEncodingContainer(KeyedContainer(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: ArrayNode
        if case .array(let existing) = node {
            array = existing
        } else {
            array = ArrayNode()
            node = .array(array)
        }
        return UnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    /// `value` encoded at `path`.
    static func node<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> Node {
        let encoder = ValueEncoder(codingPath: path)
        try value.encode(to: encoder)
        return .encoder(encoder)
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: ObjectNode
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { object.set(key.stringValue, .value(.null)) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(key.stringValue, .value(.bool(value))) }
        mutating func encode(_ value: String, forKey key: Key) throws { object.set(key.stringValue, .value(.string(value))) }
        mutating func encode(_ value: Double, forKey key: Key) throws { object.set(key.stringValue, .value(.floating(value))) }
        mutating func encode(_ value: Float, forKey key: Key) throws { object.set(key.stringValue, .value(.floating(value))) }
        mutating func encode(_ value: Int, forKey key: Key) throws { object.set(key.stringValue, .value(.number(String(value)))) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(key.stringValue, .value(.number(String(value)))) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(key.stringValue, .value(.number(String(value)))) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(key.stringValue, .value(.number(String(value)))) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(key.stringValue, .value(.number(String(value)))) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(key.stringValue, .value(.number(String(value)))) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(key.stringValue, .value(.number(String(value)))) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(key.stringValue, .value(.number(String(value)))) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(key.stringValue, .value(.number(String(value)))) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(key.stringValue, .value(.number(String(value)))) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            object.set(key.stringValue, try ValueEncoder.node(value, at: codingPath + [key]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy _: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectNode()
            object.set(key.stringValue, .object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            object.set(key.stringValue, .array(nested))
            return UnkeyedContainer(array: nested, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue, key) }

        private func superEncoder(named name: String, _ key: (any CodingKey)? = nil) -> any Encoder {
            let encoder = ValueEncoder(codingPath: codingPath + [key ?? SuperKey()])
            object.set(name, .encoder(encoder))
            return encoder
        }
    }

    struct SuperKey: CodingKey {
        var stringValue: String { "super" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let array: ArrayNode
        let codingPath: [any CodingKey]
        var count: Int { array.items.count }

        private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

        mutating func encodeNil() throws { array.items.append(.value(.null)) }
        mutating func encode(_ value: Bool) throws { array.items.append(.value(.bool(value))) }
        mutating func encode(_ value: String) throws { array.items.append(.value(.string(value))) }
        mutating func encode(_ value: Double) throws { array.items.append(.value(.floating(value))) }
        mutating func encode(_ value: Float) throws { array.items.append(.value(.floating(value))) }
        mutating func encode(_ value: Int) throws { array.items.append(.value(.number(String(value)))) }
        mutating func encode(_ value: Int8) throws { array.items.append(.value(.number(String(value)))) }
        mutating func encode(_ value: Int16) throws { array.items.append(.value(.number(String(value)))) }
        mutating func encode(_ value: Int32) throws { array.items.append(.value(.number(String(value)))) }
        mutating func encode(_ value: Int64) throws { array.items.append(.value(.number(String(value)))) }
        mutating func encode(_ value: UInt) throws { array.items.append(.value(.number(String(value)))) }
        mutating func encode(_ value: UInt8) throws { array.items.append(.value(.number(String(value)))) }
        mutating func encode(_ value: UInt16) throws { array.items.append(.value(.number(String(value)))) }
        mutating func encode(_ value: UInt32) throws { array.items.append(.value(.number(String(value)))) }
        mutating func encode(_ value: UInt64) throws { array.items.append(.value(.number(String(value)))) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            array.items.append(try ValueEncoder.node(value, at: nextPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectNode()
            let path = nextPath
            array.items.append(.object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            let path = nextPath
            array.items.append(.array(nested))
            return UnkeyedContainer(array: nested, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            let encoder = ValueEncoder(codingPath: nextPath)
            array.items.append(.encoder(encoder))
            return encoder
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: ValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        private func set(_ json: JSONValue) { encoder.node = .value(json) }

        mutating func encodeNil() throws { set(.null) }
        mutating func encode(_ value: Bool) throws { set(.bool(value)) }
        mutating func encode(_ value: String) throws { set(.string(value)) }
        mutating func encode(_ value: Double) throws { set(.floating(value)) }
        mutating func encode(_ value: Float) throws { set(.floating(value)) }
        mutating func encode(_ value: Int) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int8) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int16) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int32) throws { set(.number(String(value))) }
        mutating func encode(_ value: Int64) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt8) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt16) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt32) throws { set(.number(String(value))) }
        mutating func encode(_ value: UInt64) throws { set(.number(String(value))) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            encoder.node = try ValueEncoder.node(value, at: codingPath)
        }
    }
}

// MARK: - Decoding

private struct ValueDecoder: Decoder {
    let json: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ json: JSONValue, codingPath: [any CodingKey]) {
        self.json = json
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = json else {
            throw DecodingError.typeMismatch(
                [String: Any].self, .init(codingPath: codingPath, debugDescription: "expected an object, found \(json.kind)"))
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = json else {
            throw DecodingError.typeMismatch(
                [Any].self, .init(codingPath: codingPath, debugDescription: "expected an array, found \(json.kind)"))
        }
        return UnkeyedContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(json: json, codingPath: codingPath) }

    /// `json` as a primitive `T`, at `path`.
    static func primitive<T>(_ json: JSONValue, as type: T.Type, at path: [any CodingKey]) throws -> T {
        func mismatch(_ expected: String) -> DecodingError {
            let shown: String =
                switch json {
                case .number(let text): "the number \(text)"
                case .string(let text): "the string \(JSONText.quoted(String(text.prefix(40))))"
                default: json.kind
                }
            return DecodingError.typeMismatch(T.self, .init(codingPath: path, debugDescription: "expected \(expected), found \(shown)"))
        }
        func integer<I: FixedWidthInteger>(_: I.Type) throws -> T {
            guard case .number(let text) = json else { throw mismatch("an integer") }
            guard let value = I(text) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: path,
                        debugDescription: text.contains(where: { ".eE".contains($0) })
                            ? "expected an integer, found the number \(text)" : "the number \(text) does not fit in \(I.self)"))
            }
            return value as! T
        }
        func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(_: F.Type) throws -> T {
            switch json {
            case .number(let text):
                guard let value = F(text), value.isFinite else {
                    throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "the number \(text) does not fit in \(F.self)"))
                }
                return value as! T
            case .string("Infinity"): return F.infinity as! T
            case .string("-Infinity"): return -F.infinity as! T
            case .string("NaN"): return F.nan as! T
            default: throw mismatch("a number")
            }
        }
        switch type {
        case is Bool.Type:
            guard case .bool(let value) = json else { throw mismatch("a bool") }
            return value as! T
        case is String.Type:
            guard case .string(let value) = json else { throw mismatch("a string") }
            return value as! T
        case is Double.Type: return try floating(Double.self)
        case is Float.Type: return try floating(Float.self)
        case is Int.Type: return try integer(Int.self)
        case is Int8.Type: return try integer(Int8.self)
        case is Int16.Type: return try integer(Int16.self)
        case is Int32.Type: return try integer(Int32.self)
        case is Int64.Type: return try integer(Int64.self)
        case is UInt.Type: return try integer(UInt.self)
        case is UInt8.Type: return try integer(UInt8.self)
        case is UInt16.Type: return try integer(UInt16.self)
        case is UInt32.Type: return try integer(UInt32.self)
        case is UInt64.Type: return try integer(UInt64.self)
        default: preconditionFailure("\(T.self) is not a primitive JSON type")
        }
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [(key: String, value: JSONValue)]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

        func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

        private func value(_ key: Key) throws -> JSONValue {
            guard let member = members.first(where: { $0.key == key.stringValue }) else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "no member \(JSONText.quoted(key.stringValue))"))
            }
            return member.value
        }

        private func primitive<T>(_ type: T.Type, _ key: Key) throws -> T {
            let json = try value(key)
            if case .null = json {
                throw DecodingError.valueNotFound(
                    T.self, .init(codingPath: codingPath + [key], debugDescription: "expected a value of type \(T.self), found null"))
            }
            return try ValueDecoder.primitive(json, as: type, at: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            if case .null = try value(key) { return true }
            return false
        }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try primitive(type, key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try primitive(type, key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try primitive(type, key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try primitive(type, key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try primitive(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try primitive(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try primitive(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try primitive(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try primitive(type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try primitive(type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try primitive(type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try primitive(type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try primitive(type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try primitive(type, key) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try T(from: ValueDecoder(try value(key), codingPath: codingPath + [key]))
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try ValueDecoder(try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ValueDecoder(try value(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            ValueDecoder(members.first { $0.key == "super" }?.value ?? .null, codingPath: codingPath + [ValueEncoder.SuperKey()])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            ValueDecoder(members.first { $0.key == key.stringValue }?.value ?? .null, codingPath: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let items: [JSONValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(items: [JSONValue], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        private var path: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

        private mutating func next<T>(_ type: T.Type) throws -> JSONValue {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    T.self, .init(codingPath: path, debugDescription: "the array ends after \(items.count) elements"))
            }
            defer { currentIndex += 1 }
            return items[currentIndex]
        }

        private mutating func primitive<T>(_ type: T.Type) throws -> T {
            let at = path
            let json = try next(type)
            if case .null = json {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: at, debugDescription: "expected a value of type \(T.self), found null"))
            }
            return try ValueDecoder.primitive(json, as: type, at: at)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, case .null = items[currentIndex] else { return false }
            currentIndex += 1
            return true
        }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try primitive(type) }
        mutating func decode(_ type: String.Type) throws -> String { try primitive(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try primitive(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try primitive(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try primitive(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try primitive(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try primitive(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try primitive(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try primitive(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(type) }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let at = path
            return try T(from: ValueDecoder(try next(type), codingPath: at))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let at = path
            return try ValueDecoder(try next([String: Any].self), codingPath: at).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let at = path
            return try ValueDecoder(try next([Any].self), codingPath: at).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            let at = path
            return ValueDecoder(try next(Any.self), codingPath: at)
        }
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let json: JSONValue
        let codingPath: [any CodingKey]

        private func primitive<T>(_ type: T.Type) throws -> T {
            if case .null = json {
                throw DecodingError.valueNotFound(
                    T.self, .init(codingPath: codingPath, debugDescription: "expected a value of type \(T.self), found null"))
            }
            return try ValueDecoder.primitive(json, as: type, at: codingPath)
        }

        func decodeNil() -> Bool {
            if case .null = json { return true }
            return false
        }
        func decode(_ type: Bool.Type) throws -> Bool { try primitive(type) }
        func decode(_ type: String.Type) throws -> String { try primitive(type) }
        func decode(_ type: Double.Type) throws -> Double { try primitive(type) }
        func decode(_ type: Float.Type) throws -> Float { try primitive(type) }
        func decode(_ type: Int.Type) throws -> Int { try primitive(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try primitive(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try primitive(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try primitive(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try primitive(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(type) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try T(from: ValueDecoder(json, codingPath: codingPath))
        }
    }
}

/// What a `DecodingError` says, in a snapshot refusal's words: where in `root` (`state`,
/// `context`) and what was wrong.
func decodingProblem(_ error: any Error, under root: String) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
        return "at \(codingPathText(context.codingPath, under: root)): \(context.debugDescription)"
    case .keyNotFound(let key, let context):
        return "at \(codingPathText(context.codingPath, under: root)): no member \(JSONText.quoted(key.stringValue))"
    @unknown default:
        return "\(error)"
    }
}
