import Statecraft

/// The end of a JSON result line that shows the context, `,"context":{"a":1,"b":"x"}}` and a
/// newline, kept from one result to the next: a result line copies it whole, and it is brought
/// up to date only when the runner's context version changes.
///
/// Texts shown before are kept with the values they show, 64 of them, found by a hash of those
/// values' bits: a context mostly comes back to values it had (a flag set and cleared, a small
/// count, one place among a few), and then its text is found rather than written. Otherwise
/// the text is made from the one shown last, writing again only the values that changed (a
/// context of several variables mostly changes one at a time).
///
/// A value counts as unchanged when its bits are those of the value shown: then it is the same
/// value (a string, the same storage, which the kept text holds), whose text is the same. Equal
/// values with other bits (a string made again) are only written again.
@usableFromInline package struct ContextJSONText: ~Copyable {
    /// Texts shown, each with its values; ``current`` is the one shown last.
    @usableFromInline package let entries: UnsafeMutablePointer<Entry>
    /// How many texts are kept: ``keptTexts``, or one for a context of no variables or more than
    /// ``maximumVariablesForKeptTexts``.
    @usableFromInline package let entryCount: Int
    @usableFromInline package var current = 0
    /// Where a value's text is written before it goes into a text.
    @usableFromInline package var scratch: Bytes
    @usableFromInline package let variableCount: Int
    /// The context version the current text shows; -1 when it shows none.
    @usableFromInline package var version = -1

    /// How many texts a context keeps: a power of two.
    @inlinable package static var keptTexts: Int { 64 }
    /// The most variables a context may have and keep its texts (its hash reads each value).
    @inlinable package static var maximumVariablesForKeptTexts: Int { 16 }

    /// The text for variables whose keys (`,"context":{"name":` for the first, `,"name":` for
    /// the others) are `keys`, every value `null` until ``update(_:version:)``.
    @inlinable package init(keys: borrowing BytePool) {
        variableCount = keys.count
        // No variables: one text, which the printer never shows.
        entryCount = (1...Self.maximumVariablesForKeptTexts).contains(variableCount) ? Self.keptTexts : 1
        entries = .allocate(capacity: entryCount)
        for index in 0..<entryCount { (entries + index).initialize(to: Entry(keys: keys)) }
        scratch = Bytes()
    }

    deinit {
        entries.deinitialize(count: entryCount)
        entries.deallocate()
    }

    /// The text, as last brought up to date.
    @inline(__always)
    @inlinable package var bytes: UnsafeRawBufferPointer { entries[current].bytes }

    /// Shows `context`, whose version is `version`: a text kept for its values, else the one
    /// shown last with the values that changed written again, kept in the place of their hash.
    @inlinable package mutating func update(_ context: [Value], version: Int) {
        self.version = version
        // The closure reads these as locals: only `scratch` and `current` are accessed
        // through `self` inside it, so passing `&scratch` overlaps no other access to `self`.
        let (entries, entryCount, variableCount) = (self.entries, self.entryCount, self.variableCount)
        context.withUnsafeBufferPointer { values in
            guard let base = values.baseAddress else { return }
            guard entryCount > 1 else { return entries[0].show(base, scratch: &scratch) }
            let slot = Self.hash(base, count: variableCount) & (entryCount &- 1)
            if entries[slot].shows(base) {
                current = slot
                return
            }
            if slot != current { entries[slot].copy(entries[current]) }
            current = slot
            entries[slot].show(base, scratch: &scratch)
        }
    }

    /// Forgets the version shown, so that the next ``update(_:version:)`` looks at every value:
    /// for a new runner, whose versions count anew.
    @inlinable package mutating func forgetVersion() {
        version = -1
    }

    /// A hash of the bits of the `count` values at `values`, as ``hasSameBits(_:_:)`` compares them.
    @inline(__always)
    @inlinable package static func hash(_ values: UnsafePointer<Value>, count: Int) -> Int {
        var hash: UInt64 = 0
        for slot in 0..<count {
            let value = UnsafeRawPointer(values + slot)
            var offset = 0
            while offset &+ 8 <= MemoryLayout<Value>.size {
                hash = (hash ^ value.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
                offset &+= 8
            }
            while offset < MemoryLayout<Value>.size {
                hash = (hash ^ UInt64(value.load(fromByteOffset: offset, as: UInt8.self))) &* 0x9E37_79B9_7F4A_7C15
                offset &+= 1
            }
        }
        return Int(truncatingIfNeeded: hash >> 32)
    }

    /// Whether the values at `a` and `b` have the same bits: the same case and payload.
    @inline(__always)
    @inlinable package static func hasSameBits(_ a: UnsafePointer<Value>, _ b: UnsafePointer<Value>) -> Bool {
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

    // MARK: - A text

    /// One text with the values it shows.
    @usableFromInline package struct Entry: ~Copyable {
        @usableFromInline package var text: Bytes
        /// Per variable, where its value's text starts and ends in ``text``.
        @usableFromInline package let valueStarts: UnsafeMutablePointer<Int>
        @usableFromInline package let valueEnds: UnsafeMutablePointer<Int>
        /// The values ``text`` shows.
        @usableFromInline package let shown: UnsafeMutablePointer<Value>
        @usableFromInline package let variableCount: Int

        /// Every value `null`.
        @inlinable package init(keys: borrowing BytePool) {
            variableCount = keys.count
            valueStarts = .allocate(capacity: max(variableCount, 1))
            valueEnds = .allocate(capacity: max(variableCount, 1))
            shown = .allocate(capacity: max(variableCount, 1))
            shown.initialize(repeating: .null, count: variableCount)
            text = Bytes()
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

        @inline(__always)
        @inlinable package var bytes: UnsafeRawBufferPointer { text.bytes }

        /// Whether this text shows the values at `values`.
        @inline(__always)
        @inlinable package func shows(_ values: UnsafePointer<Value>) -> Bool {
            for slot in 0..<variableCount where !ContextJSONText.hasSameBits(values + slot, shown + slot) { return false }
            return true
        }

        /// Becomes a copy of `other`.
        @inline(never)
        @inlinable package mutating func copy(_ other: borrowing Entry) {
            text.set(other.text.bytes)
            valueStarts.update(from: other.valueStarts, count: variableCount)
            valueEnds.update(from: other.valueEnds, count: variableCount)
            for slot in 0..<variableCount { shown[slot] = other.shown[slot] }
        }

        /// Shows the values at `values`, writing again those that changed.
        @inlinable package mutating func show(_ values: UnsafePointer<Value>, scratch: inout Bytes) {
            for slot in 0..<variableCount where !ContextJSONText.hasSameBits(values + slot, shown + slot) {
                write(values + slot, at: slot, scratch: &scratch)
            }
        }

        /// Writes the text of the value at `value` as variable `slot`'s. Out of line: the digits'
        /// buffer on the stack would cost ``show(_:scratch:)`` a stack check on every call.
        @inline(never)
        @inlinable package mutating func write(_ value: UnsafePointer<Value>, at slot: Int, scratch: inout Bytes) {
            shown[slot] = value.pointee
            switch value.pointee {
            case .int(let number):
                // Digits need no buffer of their own.
                DecimalDigits.with(number) { replace(slot, with: $0) }
                return
            case .string(var string):
                scratch.removeAll()
                string.withUTF8 { scratch.appendJSONString(UnsafeRawBufferPointer($0)) }
            default:
                scratch.removeAll()
                JSONValueText.pieces(of: value.pointee) { scratch.append($0) }
            }
            let written = scratch.bytes
            replace(slot, with: written)
        }

        /// Puts `newText` where variable `slot`'s value's text is: in place when it is as long (a
        /// number of as many digits, a string of as many bytes), else after moving the text that
        /// follows it.
        @inline(__always)
        @inlinable package mutating func replace(_ slot: Int, with newText: UnsafeRawBufferPointer) {
            let (start, end) = (valueStarts[slot], valueEnds[slot])
            let shift = newText.count &- (end &- start)
            if shift != 0 {
                text.moveTail(from: end, by: shift)
                valueEnds[slot] &+= shift
                for later in (slot &+ 1)..<variableCount {
                    valueStarts[later] &+= shift
                    valueEnds[later] &+= shift
                }
            }
            text.replace(from: start, with: newText)
        }
    }

    // MARK: - Bytes

    /// A growable byte buffer that is not reference counted.
    @usableFromInline package struct Bytes: ~Copyable {
        @usableFromInline package var storage: UnsafeMutableRawPointer
        @usableFromInline package var capacity = 64
        @usableFromInline package var count = 0

        @inlinable package init() {
            storage = .allocate(byteCount: capacity, alignment: 16)
        }

        deinit { storage.deallocate() }

        @inlinable package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

        @inlinable package mutating func removeAll() { count = 0 }

        /// Makes the buffer hold `bytes` alone.
        @inlinable package mutating func set(_ bytes: UnsafeRawBufferPointer) {
            count = 0
            append(bytes)
        }

        /// Moves the bytes from `start` on by `shift` (back when negative; `start + shift` is not
        /// negative), growing the buffer when they need more room.
        @inlinable package mutating func moveTail(from start: Int, by shift: Int) {
            if shift > capacity &- count { grow(toHold: count + shift) }
            let tail = count &- start
            if tail <= 128 {
                // Every byte is loaded before any is stored (``SmallCopy/copySmall(from:count:to:)``).
                SmallCopy.copySmall(from: storage + start, count: tail, to: storage + (start &+ shift))
            } else {
                (storage + (start &+ shift)).copyMemory(from: storage + start, byteCount: tail)
            }
            count &+= shift
        }

        /// Writes `bytes` over as many bytes from `start`, which are there.
        @inline(__always)
        @inlinable package mutating func replace(from start: Int, with bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress else { return }
            SmallCopy.copy(from: base, count: bytes.count, to: storage + start)
        }

        @inline(__always)
        @inlinable package mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            if bytes.count > capacity &- count { grow(toHold: count + bytes.count) }
            SmallCopy.copy(from: base, count: bytes.count, to: storage + count)
            count &+= bytes.count
        }

        /// Appends `bytes` (UTF-8) as a JSON string: between quotes as they are when they are
        /// plain (``JSONText/isPlain(_:)``), with one check for room.
        @inlinable package mutating func appendJSONString(_ bytes: UnsafeRawBufferPointer) {
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

        @inlinable package mutating func append(_ literal: StaticString) {
            append(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }

        @inline(never)
        @inlinable package mutating func grow(toHold needed: Int) {
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
