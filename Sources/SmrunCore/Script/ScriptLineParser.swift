import Statecraft

/// Turns an input-script line (`INPUT` or `INPUT ARG`, docs/cli.md) into an input id and a typed
/// argument, using the machine's precomputed name table. Allocates only to build a string
/// argument that the machine reads.
///
/// `@usableFromInline` with `@inlinable package` members, not `@_spi` public: smrun inlines
/// this on its per-line path, and Swift 6.3 inlines a `package` member into another module
/// only when its type is `@usableFromInline` (a plain `package` type cost 19% more
/// instructions per script line, callgrind; see README, Source layout).
@usableFromInline package struct ScriptLineParser {
    @usableFromInline package enum Parsed {
        case skip
        case input(Int, ScriptArgument)
        case unknownInput(name: UnsafeRawBufferPointer)
        /// The argument does not fit the input's declared type; `problem` says how.
        case badArgument(input: Int, problem: String)
        /// `@wait DURATION`: move the clock forward by this many milliseconds.
        case wait(milliseconds: Int)
        /// `@wait` without a valid duration; `problem` says why.
        case badWait(problem: String)
        /// A valid event name that is no input, sent to a machine that accepts such events (an
        /// SCXML document without `<sc:input>` declarations, docs/scxml.md): `input` takes it,
        /// the input of the longest name that prefixes it on `.` boundaries (`a.b` prefixes
        /// `a.b.c`, not `a.bc`), or `nil` when none does and no transition takes it. Such an
        /// event takes no argument: `argument` is the one written, if any.
        case undeclaredEvent(input: Int?, name: UnsafeRawBufferPointer, argument: UnsafeRawBufferPointer?)
    }

    /// A plain line, parsed (``parsePlain(line:)``): plain data, so that passing one around
    /// costs no reference counting; a string argument is built only when asked for.
    @usableFromInline package struct Plain {
        @usableFromInline package enum Kind {
            case none, int, bool, string
            /// A string the machine never reads.
            case unreadString
        }

        @usableFromInline package var input: Int
        @usableFromInline package var kind: Kind
        /// An int argument, or a bool's 0 or 1.
        @usableFromInline package var number: Int
        /// A string argument as written, quotes included.
        @usableFromInline package var quoted: UnsafeRawBufferPointer

        @usableFromInline
        init(input: Int, kind: Kind, number: Int, quoted: UnsafeRawBufferPointer) {
            self.input = input
            self.kind = kind
            self.number = number
            self.quoted = quoted
        }

        /// The argument's value (a placeholder for a string that is never read).
        @inlinable @inline(__always)
        package var value: Value {
            switch kind {
            case .none: .null
            case .int: .int(number)
            case .bool: .bool(number != 0)
            case .string: .string(String(decoding: unquoted, as: UTF8.self))
            case .unreadString: .string("")
            }
        }

        /// A string argument's bytes between its quotes.
        @inlinable @inline(__always)
        var unquoted: UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: quoted.baseAddress.map { $0 + 1 }, count: quoted.count &- 2)
        }

        /// The argument as the printer takes it.
        @inlinable package var argument: ScriptArgument {
            switch kind {
            case .none: .absent
            case .unreadString: ScriptArgument(value: .string(""), raw: quoted, rawIsJSON: true)
            default: ScriptArgument(value: value, raw: nil, rawIsJSON: false)
            }
        }
    }

    /// The machine's ``CompiledMachine/argumentTypes`` and ``CompiledMachine/argumentIsRead``
    /// (only these, so that the parser stays small to pass around); an internal input's type is
    /// `nil` here, so that ``parsePlain(line:)`` never takes a line that sends one.
    @usableFromInline let argumentTypes: [ValueType?]
    @usableFromInline let argumentIsRead: [Bool]
    /// The input names, tagged with ``takesArgumentTag`` when the input takes an argument and
    /// ``internalTag`` when it is internal: ``parsePlain(line:)`` takes a bare name only when its
    /// tag is 0, so internal inputs cost the fast path nothing.
    @usableFromInline let names: NameTable
    /// ``NameTable/longestName`` of ``names``, kept beside it so that the check before a whole
    /// line's lookup reads no memory of the table's.
    @usableFromInline let longestName: Int
    /// Whether a valid name that is no input is an event that its longest prefixing input takes
    /// (``CompiledMachine/acceptsUndeclaredEvents``), rather than an unknown input.
    let acceptsUndeclaredEvents: Bool
    /// Where JSON-quoted strings are decoded, reused across lines.
    private var scratch: [UInt8] = []
    /// The values of the plain string arguments seen last.
    private var argumentStrings = ArgumentStrings()

    @usableFromInline static let takesArgumentTag: Int32 = 1
    @usableFromInline static let internalTag: Int32 = 2

    package init(machine: CompiledMachine) {
        let isInternal = machine.inputIsInternal
        argumentTypes = machine.argumentTypes.indices.map { isInternal[$0] ? nil : machine.argumentTypes[$0] }
        argumentIsRead = machine.argumentIsRead
        self.names = NameTable(
            machine.inputNames,
            tags: machine.inputNames.indices.map { input in
                (machine.argumentTypes[input] == nil ? 0 : Self.takesArgumentTag) | (isInternal[input] ? Self.internalTag : 0)
            })
        longestName = names.longestName
        acceptsUndeclaredEvents = machine.acceptsUndeclaredEvents
        scratch.reserveCapacity(256)
    }

    /// Parses one script line (without its `\n`): blank lines and `#` comments are skipped, and
    /// so is a trailing comment, a blank followed by `#` outside a JSON-quoted argument
    /// (``commentStart(_:from:end:)``).
    package mutating func parse(line: UnsafeRawBufferPointer) -> Parsed {
        var end = line.count
        if end > 0 && line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var start = 0
        while start < end && Self.isBlank(line[start]) { start += 1 }
        if start == end || line[start] == UInt8(ascii: "#") { return .skip }
        var nameEnd = start
        while nameEnd < end && !Self.isBlank(line[nameEnd]) { nameEnd += 1 }
        let name = UnsafeRawBufferPointer(rebasing: line[start..<nameEnd])
        var argStart = nameEnd
        while argStart < end && Self.isBlank(line[argStart]) { argStart += 1 }
        // A JSON-quoted argument's comment can only start after its closing quote.
        let searchFrom = argStart < end && line[argStart] == UInt8(ascii: "\"") ? Self.quotedEnd(line, from: argStart, end: end) : nameEnd
        end = Self.commentStart(line, from: searchFrom, end: end)
        while end > argStart && Self.isBlank(line[end - 1]) { end -= 1 }
        let argument = argStart < end ? UnsafeRawBufferPointer(rebasing: line[argStart..<end]) : nil
        // No input name starts with `@`: such a line is a directive.
        if name.elementsEqual(Self.waitDirective.utf8) { return Self.parseWait(argument) }
        return parse(name: name, argument: argument)
    }

    /// Where a trailing comment starts: the first blank at or after `from`, and before `end`,
    /// that a `#` follows; `end` when there is none. No allocation: one pass over the bytes.
    @inline(__always)
    package static func commentStart(_ line: UnsafeRawBufferPointer, from: Int, end: Int) -> Int {
        var index = from
        while index &+ 1 < end {
            if line[index &+ 1] == UInt8(ascii: "#") && isBlank(line[index]) { return index }
            index &+= 1
        }
        return end
    }

    /// The index just past the JSON string that opens at `start` (a `"`), skipping its escapes;
    /// `end` when it is not closed (the argument is then refused as it is).
    @inline(__always)
    static func quotedEnd(_ line: UnsafeRawBufferPointer, from start: Int, end: Int) -> Int {
        var index = start &+ 1
        while index < end {
            switch line[index] {
            case UInt8(ascii: "\\"): index &+= 2
            case UInt8(ascii: "\""): return index &+ 1
            default: index &+= 1
            }
        }
        return end
    }

    /// The directive that moves the clock: `@wait DURATION`.
    package static let waitDirective = "@wait"

    /// The duration of `@wait DURATION` (docs/cli.md).
    package static func parseWait(_ argument: UnsafeRawBufferPointer?) -> Parsed {
        guard let argument else { return .badWait(problem: "'@wait' needs a duration, such as @wait 30s") }
        do {
            return .wait(milliseconds: try Delay.milliseconds(argument))
        } catch {
            return .badWait(problem: "\(show(argument)) is not a duration: \(error.message)")
        }
    }

    /// Parses a line in the plain form that scripts are written in: `INPUT`, or `INPUT ARG` with
    /// one space and the argument spelt as smrun prints it (an int in decimal, without `+` or
    /// leading zeros; `true` or `false`; a JSON-quoted string of printable ASCII without
    /// escapes). So the line is also its result's text up to the `:`. `nil` for any other line,
    /// which ``parse(line:)`` takes.
    @inlinable @inline(__always)
    package func parsePlain(line: UnsafeRawBufferPointer) -> Plain? {
        // Most lines are a bare name: look the line up whole (when it is not longer than every
        // name) before looking for a space.
        if line.count <= longestName, let (input, takesArgument) = names.entry(of: line) {
            return takesArgument == 0 ? Plain(input: input, kind: .none, number: 0, quoted: line) : nil
        }
        // The name ends at the first space, which comes at most one byte after the longest name.
        guard let base = line.baseAddress, let nameCount = Self.spaceIndex(base, count: min(line.count, longestName &+ 1)) else {
            return nil
        }
        guard let input = names.id(of: UnsafeRawBufferPointer(start: base, count: nameCount)) else { return nil }
        let type = argumentTypes[input]
        let argument = UnsafeRawBufferPointer(start: base + (nameCount &+ 1), count: line.count &- nameCount &- 1)
        switch type {
        case .int?:
            guard let number = Self.plainInt(argument) else { return nil }
            return Plain(input: input, kind: .int, number: number, quoted: argument)
        case .string?:
            guard Self.isPlainQuoted(argument) else { return nil }
            return Plain(input: input, kind: argumentIsRead[input] ? .string : .unreadString, number: 0, quoted: argument)
        case .bool?:
            if argument.elementsEqual("true".utf8) { return Plain(input: input, kind: .bool, number: 1, quoted: argument) }
            if argument.elementsEqual("false".utf8) { return Plain(input: input, kind: .bool, number: 0, quoted: argument) }
            return nil
        default:
            return nil
        }
    }

    /// The offset of the first space among the `count` bytes at `base`, or `nil`: a word at a
    /// time, in line (names are short, and a call to `memchr` costs more than the search).
    @inlinable @inline(__always)
    static func spaceIndex(_ base: UnsafeRawPointer, count: Int) -> Int? {
        guard count >= 8 else {
            for offset in 0..<count where base.load(fromByteOffset: offset, as: UInt8.self) == UInt8(ascii: " ") { return offset }
            return nil
        }
        var offset = 0
        while true {
            // The bytes equal to a space become 0, and a zero byte sets its top bit in `found`;
            // the lowest set bit is exact (bits above it may be set by a borrow).
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ 0x2020_2020_2020_2020
            let found = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
            if found != 0 { return offset &+ found.trailingZeroBitCount &>> 3 }
            if offset &+ 8 == count { return nil }
            // The last word overlaps the one before: its bytes before `offset + 8` hold no space.
            offset = min(offset &+ 8, count &- 8)
        }
    }

    /// A plain line's argument (``Plain/value``); a string the machine reads is taken from the
    /// strings seen before when it is one of them, rather than made again.
    @inlinable @inline(__always)
    package mutating func value(of plain: Plain) -> Value {
        plain.kind == .string ? stringValue(plain.unquoted) : plain.value
    }

    @usableFromInline
    mutating func stringValue(_ bytes: UnsafeRawBufferPointer) -> Value {
        argumentStrings.value(of: bytes)
    }

    /// An int as smrun prints it: `-`?, then `0` or up to 18 digits not starting with `0`.
    @inlinable @inline(__always)
    static func plainInt(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = negative ? 1 : 0
        let count = bytes.count &- digits
        guard count >= 1 && count <= 18 else { return nil }
        var value = 0
        var index = digits
        while index < bytes.count {
            let digit = Int(bytes[index]) &- Int(UInt8(ascii: "0"))
            guard digit >= 0 && digit <= 9 else { return nil }
            value = value &* 10 &+ digit
            index &+= 1
        }
        if count > 1 && bytes[digits] == UInt8(ascii: "0") { return nil }
        if negative && value == 0 { return nil }
        return negative ? -value : value
    }

    /// A JSON string of printable ASCII without escapes: what smrun prints for it is its bytes.
    @inlinable @inline(__always)
    static func isPlainQuoted(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\""), bytes[bytes.count &- 1] == UInt8(ascii: "\"") else { return false }
        return JSONText.isPlain(UnsafeRawBufferPointer(rebasing: bytes[1..<(bytes.count &- 1)]))
    }

    /// Parses an input given as a name and an optional argument (`--send NAME=ARG`). An internal
    /// input is unknown to scripts: only the machine's effects may send it.
    package mutating func parse(name: UnsafeRawBufferPointer, argument: UnsafeRawBufferPointer?) -> Parsed {
        guard let (input, tag) = names.entry(of: name) else {
            if acceptsUndeclaredEvents && Self.isEventName(name) { return undeclaredEvent(name, argument: argument) }
            return .unknownInput(name: name)
        }
        guard tag & Self.internalTag == 0 else { return .unknownInput(name: name) }
        guard let type = argumentTypes[input] else {
            if let argument { return .badArgument(input: input, problem: "got \(Self.show(argument))") }
            return .input(input, .absent)
        }
        guard let argument else { return .badArgument(input: input, problem: "but none was given") }
        switch typedValue(argument, as: type, isRead: argumentIsRead[input]) {
        case .some(let value): return .input(input, value)
        case .none: return .badArgument(input: input, problem: "got \(Self.show(argument))")
        }
    }

    /// `name`, which is no input, as an event: taken by the input of its longest prefix that is
    /// one, token by token (SCXML 3.12.1), that takes no argument and is not internal.
    private func undeclaredEvent(_ name: UnsafeRawBufferPointer, argument: UnsafeRawBufferPointer?) -> Parsed {
        var end = name.count
        while end > 0 {
            end -= 1
            guard name[end] == UInt8(ascii: ".") else { continue }
            if let (input, tag) = names.entry(of: UnsafeRawBufferPointer(rebasing: name[..<end])), tag == 0 {
                return .undeclaredEvent(input: input, name: name, argument: argument)
            }
        }
        return .undeclaredEvent(input: nil, name: name, argument: argument)
    }

    /// Whether `name` may name an event: a valid input name (``NameRules``) whose `.`-separated
    /// tokens are not empty.
    static func isEventName(_ name: UnsafeRawBufferPointer) -> Bool {
        guard name.first != UInt8(ascii: "."), name.last != UInt8(ascii: "."), JSONString.isValidUTF8(name) else { return false }
        var previous: UInt8 = 0
        for byte in name {
            if byte == UInt8(ascii: ".") && previous == byte { return false }
            previous = byte
        }
        return NameRules.problem(withInputName: String(decoding: name, as: UTF8.self)) == nil
    }

    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private mutating func typedValue(_ bytes: UnsafeRawBufferPointer, as type: ValueType, isRead: Bool) -> ScriptArgument? {
        let quoted = bytes.first == UInt8(ascii: "\"")
        switch type {
        case .string:
            if quoted {
                guard JSONString.decode(bytes, into: &scratch) else { return nil }
                if !isRead { return ScriptArgument(value: .string(""), raw: bytes, rawIsJSON: true) }
                return ScriptArgument(value: .string(String(decoding: scratch, as: UTF8.self)), raw: nil, rawIsJSON: false)
            }
            guard JSONString.isValidUTF8(bytes) else { return nil }
            if !isRead { return ScriptArgument(value: .string(""), raw: bytes, rawIsJSON: false) }
            return ScriptArgument(value: .string(String(decoding: bytes, as: UTF8.self)), raw: nil, rawIsJSON: false)
        case .int:
            return Self.int(bytes).map { ScriptArgument(value: .int($0), raw: nil, rawIsJSON: false) }
        case .double:
            return Self.double(bytes).map { ScriptArgument(value: .double($0), raw: nil, rawIsJSON: false) }
        case .bool:
            if bytes.elementsEqual("true".utf8) { return ScriptArgument(value: .bool(true), raw: nil, rawIsJSON: false) }
            if bytes.elementsEqual("false".utf8) { return ScriptArgument(value: .bool(false), raw: nil, rawIsJSON: false) }
            return nil
        case .null, .list, .record:
            // No input takes one from a script (``ValueType/argumentTypes``).
            return nil
        }
    }

    /// A decimal integer with an optional sign, in range.
    static func int(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value = 0
        while index < bytes.count {
            let digit = Int(bytes[index]) &- Int(UInt8(ascii: "0"))
            guard digit >= 0 && digit <= 9 else { return nil }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// A finite decimal number: digits, an optional fraction and exponent (no `nan`, `inf`, hex).
    static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard !bytes.isEmpty, bytes.count < 400,
            bytes.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || "+-.eE".utf8.contains($0) }),
            let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite
        else { return nil }
        return value
    }

    /// The argument as it was written, for a message.
    package static func show(_ bytes: UnsafeRawBufferPointer) -> String {
        let shown = bytes.count > 60 ? UnsafeRawBufferPointer(rebasing: bytes[..<60]) : bytes
        return JSONText.quoted(String(decoding: shown, as: UTF8.self)) + (bytes.count > 60 ? "..." : "")
    }
}
