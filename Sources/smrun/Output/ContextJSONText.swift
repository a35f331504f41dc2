@_spi(Engine) import Statecraft

/// The end of a JSON result line that shows the context, `,"context":{"a":1,"b":"x"}}` and a
/// newline, kept from one result to the next: a result line copies it whole, it is brought up
/// to date only when the runner's context version changes, and then only the values that
/// changed are written again (a context of several variables mostly changes one at a time).
///
/// A value counts as unchanged when its bits are those of the value shown: then it is the same
/// value (a string, the same storage), whose text is the same. Equal values with other bits (a
/// string made again) are only written again.
struct ContextJSONText: ~Copyable {
    /// The text shown, and where the next one is built when a value's text changes length.
    private var text: Bytes
    private var spare: Bytes
    /// Where a value's text is written before it goes into ``text``.
    private var scratch: Bytes
    /// Per variable, where its value's text starts and ends in ``text``.
    private let valueStarts: UnsafeMutablePointer<Int>
    private let valueEnds: UnsafeMutablePointer<Int>
    /// The values ``text`` shows.
    private let shown: UnsafeMutablePointer<Value>
    private let variableCount: Int
    /// The context version ``text`` shows; -1 when it shows none.
    private(set) var version = -1

    /// The text for variables whose keys (`,"context":{"name":` for the first, `,"name":` for
    /// the others) are `keys`, every value `null` until ``update(_:version:)``.
    init(keys: borrowing BytePool) {
        variableCount = keys.count
        valueStarts = .allocate(capacity: max(variableCount, 1))
        valueEnds = .allocate(capacity: max(variableCount, 1))
        shown = .allocate(capacity: max(variableCount, 1))
        shown.initialize(repeating: .null, count: variableCount)
        text = Bytes()
        spare = Bytes()
        scratch = Bytes()
        for slot in 0..<variableCount {
            text.append(keys[slot])
            valueStarts[slot] = text.count
            text.append("null" as StaticString)
            valueEnds[slot] = text.count
        }
        text.append("}}\n" as StaticString)
    }

    deinit {
        shown.deinitialize(count: variableCount)
        shown.deallocate()
        valueStarts.deallocate()
        valueEnds.deallocate()
    }

    /// The text, as last brought up to date.
    @inline(__always)
    var bytes: UnsafeRawBufferPointer { text.bytes }

    /// Shows `context`, whose version is `version`.
    mutating func update(_ context: [Value], version: Int) {
        self.version = version
        context.withUnsafeBufferPointer { values in
            for slot in 0..<variableCount where !Self.hasSameBits(values.baseAddress! + slot, shown + slot) {
                write(values[slot], at: slot)
            }
        }
    }

    /// Writes `value`'s text as variable `slot`'s.
    private mutating func write(_ value: Value, at slot: Int) {
        shown[slot] = value
        switch value {
        case .int(let number):
            // Digits need no buffer of their own.
            DecimalDigits.with(number) { replace(slot, with: $0) }
            return
        case .string(var string):
            scratch.removeAll()
            string.withUTF8 { scratch.appendJSONString(UnsafeRawBufferPointer($0)) }
        default:
            scratch.removeAll()
            JSONValueText.pieces(of: value) { scratch.append($0) }
        }
        let written = scratch.bytes
        replace(slot, with: written)
    }

    /// Puts `newText` where variable `slot`'s value's text is: in place when it is as long (a
    /// number of as many digits, a string of as many bytes), else in a new text.
    private mutating func replace(_ slot: Int, with newText: UnsafeRawBufferPointer) {
        let (start, end) = (valueStarts[slot], valueEnds[slot])
        if newText.count == end &- start {
            text.replace(from: start, with: newText)
            return
        }
        spare.removeAll()
        spare.append(text.bytes(from: 0, to: start))
        spare.append(newText)
        spare.append(text.bytes(from: end, to: text.count))
        swap(&text, &spare)
        let shift = newText.count &- (end &- start)
        valueEnds[slot] &+= shift
        for later in (slot &+ 1)..<variableCount {
            valueStarts[later] &+= shift
            valueEnds[later] &+= shift
        }
    }

    /// Forgets the version shown, so that the next ``update(_:version:)`` looks at every value:
    /// for a new runner, whose versions count anew.
    mutating func forgetVersion() {
        version = -1
    }

    /// Whether the values at `a` and `b` have the same bits: the same case and payload.
    @inline(__always)
    private static func hasSameBits(_ a: UnsafePointer<Value>, _ b: UnsafePointer<Value>) -> Bool {
        let (x, y) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
        var offset = 0
        while offset &+ 8 <= MemoryLayout<Value>.size {
            if x.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != y.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset &+= 8
        }
        while offset < MemoryLayout<Value>.size {
            if x.load(fromByteOffset: offset, as: UInt8.self) != y.load(fromByteOffset: offset, as: UInt8.self) { return false }
            offset &+= 1
        }
        return true
    }

    // MARK: - Bytes

    /// A growable byte buffer that is not reference counted.
    private struct Bytes: ~Copyable {
        private var storage: UnsafeMutableRawPointer
        private var capacity = 64
        private(set) var count = 0

        init() {
            storage = .allocate(byteCount: capacity, alignment: 16)
        }

        deinit { storage.deallocate() }

        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

        func bytes(from start: Int, to end: Int) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: storage + start, count: end &- start)
        }

        mutating func removeAll() { count = 0 }

        /// Writes `bytes` over as many bytes from `start`, which are there.
        @inline(__always)
        mutating func replace(from start: Int, with bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress else { return }
            SmallCopy.copy(from: base, count: bytes.count, to: storage + start)
        }

        @inline(__always)
        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            if bytes.count > capacity &- count { grow(toHold: count + bytes.count) }
            SmallCopy.copy(from: base, count: bytes.count, to: storage + count)
            count &+= bytes.count
        }

        /// Appends `bytes` (UTF-8) as a JSON string: between quotes as they are when they are
        /// plain (``JSONText/isPlain(_:)``), with one check for room.
        mutating func appendJSONString(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, JSONText.isPlain(bytes) else {
                JSONValueText.stringPieces(bytes) { append($0) }
                return
            }
            if bytes.count &+ 2 > capacity &- count { grow(toHold: count + bytes.count + 2) }
            storage.storeBytes(of: UInt8(ascii: "\""), toByteOffset: count, as: UInt8.self)
            SmallCopy.copy(from: base, count: bytes.count, to: storage + (count &+ 1))
            storage.storeBytes(of: UInt8(ascii: "\""), toByteOffset: count &+ 1 &+ bytes.count, as: UInt8.self)
            count &+= bytes.count &+ 2
        }

        mutating func append(_ literal: StaticString) {
            append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }

        @inline(never)
        private mutating func grow(toHold needed: Int) {
            var larger = capacity * 2
            while larger < needed { larger *= 2 }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: larger, alignment: 16)
            grown.copyMemory(from: storage, byteCount: count)
            storage.deallocate()
            storage = grown
            capacity = larger
        }
    }
}
