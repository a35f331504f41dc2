/// A value of the machine's extended state (context), an input's argument, or an expression.
public enum Value: Hashable, Sendable {
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A boolean.
    case bool(Bool)
    /// A string.
    case string(String)
    /// No value.
    case null
    /// A list of ints, doubles, bools or strings, all of one type (docs/machine-files.md).
    case list([Value])
    /// An input's data with named fields (SCXML's `<param>`, a send's `data`), read as `arg.NAME`.
    case record(Record)

    /// The value's type; `null` has the type ``ValueType/null``.
    public var type: ValueType {
        switch self {
        case .int: .int
        case .double: .double
        case .bool: .bool
        case .string: .string
        case .null: .null
        case .list: .list
        case .record: .record
        }
    }
}

extension Value {
    /// The data of an input with named fields, in the order they were given.
    public struct Record: Hashable, Sendable {
        /// One named field.
        public struct Field: Hashable, Sendable {
            /// The field's name.
            public var name: String
            /// Its value.
            public var value: Value

            /// A field `name` holding `value`.
            public init(_ name: String, _ value: Value) {
                self.name = name
                self.value = value
            }
        }

        /// The fields, in order; a name appears once.
        public var fields: [Field]

        /// A record of `fields`.
        public init(_ fields: [Field]) {
            self.fields = fields
        }

        /// The value of the field `name`, if the record has one.
        public subscript(name: String) -> Value? {
            fields.first { $0.name == name }?.value
        }
    }
}

extension Value: CustomStringConvertible {
    /// The value as it is written in an expression or an input script: strings in JSON quotes,
    /// lists in brackets (`[1, 2, 3]`), a record as a JSON object (`{"name": 1}`).
    public var description: String {
        switch self {
        case .int(let i): String(i)
        case .double(let d): String(d)
        case .bool(let b): b ? "true" : "false"
        case .string(let s): JSONText.quoted(s)
        case .null: "null"
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .record(let record):
            "{" + record.fields.map { JSONText.quoted($0.name) + ": " + $0.value.description }.joined(separator: ", ") + "}"
        }
    }

    /// The value as compact JSON (`[1,2,3]`, `{"name":1}`): what smrun's JSON output and
    /// snapshots write. A double is written as ``description`` writes it.
    package var jsonText: String {
        switch self {
        case .list(let items): "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .record(let record): "{" + record.fields.map { JSONText.quoted($0.name) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        default: description
        }
    }
}

// MARK: - Lists

extension Value {
    /// The list of `items`, or why they cannot make one (a context's initial list, a scenario's
    /// value): ints, doubles, bools or strings, all of one type, where ints among doubles are
    /// made doubles.
    package static func list(checking items: [Value]) -> Result<Value, ListProblem> {
        guard let elementType = Self.elementType(of: items) else {
            if let nested = items.firstIndex(where: { $0.type == .list || $0.type == .record || $0.type == .null }) {
                return .failure(ListProblem(index: nested, message: "a list holds ints, doubles, bools or strings, not \(items[nested].type)"))
            }
            let index = items.firstIndex { $0.type != items[0].type && !($0.type.isNumber && items[0].type.isNumber) } ?? 0
            let kinds = Set(items.map(\.type.rawValue)).sorted()
            return .failure(ListProblem(
                index: index,
                message: "a list's items are of one type, but it mixes \(kinds.dropLast().joined(separator: ", ")) and \(kinds.last!)"))
        }
        if elementType == .double {
            return .success(.list(items.map { if case .int(let i) = $0 { .double(Double(i)) } else { $0 } }))
        }
        return .success(.list(items))
    }

    /// The one type of `items` (double when ints and doubles mix), `.null` when there are none,
    /// `nil` when they do not make a list.
    package static func elementType(of items: [Value]) -> ValueType? {
        var type = ValueType.null
        for item in items {
            switch (type, item.type) {
            case (_, .null), (_, .list), (_, .record): return nil
            case (.null, let itemType): type = itemType
            case (let a, let b) where a == b: break
            case (.int, .double), (.double, .int): type = .double
            default: return nil
            }
        }
        return type
    }

    /// Why items cannot make a list, and the first item at fault.
    package struct ListProblem: Error {
        package var index: Int
        @usableFromInline package var message: String
    }
}

/// The type of a ``Value``.
public enum ValueType: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// An integer.
    case int
    /// A floating-point number.
    case double
    /// A boolean.
    case bool
    /// A string.
    case string
    /// The type of `null`, before a variable that starts as `null` is assigned a value.
    case null
    /// A list (its items' type is the expression type's).
    case list
    /// An input's data with named fields.
    case record

    /// Types an input argument may have.
    package static let argumentTypes: [ValueType] = [.int, .double, .bool, .string]

    package var isNumber: Bool { self == .int || self == .double }

    /// The type's name as written in a machine file.
    public var description: String { rawValue }
}
