#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads lines from a file descriptor in large blocks, without building a `String` per line.
///
/// Memory is bounded by the block size and the longest line, not by the input's length. Before
/// a read that would block (a pipe that delivers lines slowly), it calls `willBlock` so the
/// caller can flush its output: each result then appears as soon as its line arrives, while a
/// file or a fast pipe is read at full speed. `willBlock` returns how long to wait for input,
/// in milliseconds (-1: as long as it takes): when that time passes with no input (a timer on
/// the wall clock falls due, `--clock real`), it is called again, and so on.
struct LineReader: ~Copyable {
    enum Line {
        /// A line without its `\n` (a final `\r` is kept; the script parser drops it).
        case text(UnsafeRawBufferPointer)
        /// A line longer than the limit; its bytes were skipped.
        case tooLong(bytes: Int)
    }

    private let fd: Int32
    private var buffer: UnsafeMutableRawBufferPointer
    private let maximumLineBytes: Int
    private var start = 0
    private var end = 0
    private var atEOF = false
    private(set) var readError: Int32 = 0

    init(fd: Int32, blockSize: Int = 1 << 20, maximumLineBytes: Int) {
        self.fd = fd
        self.maximumLineBytes = maximumLineBytes
        buffer = Self.allocate(blockSize)
    }

    deinit { buffer.deallocate() }

    /// A buffer of `count` bytes followed by the word that ``newlineIndex(from:)`` may read
    /// past the last one; the read bytes are always followed by a zero word (``fill``).
    private static func allocate(_ count: Int) -> UnsafeMutableRawBufferPointer {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: count + 8, alignment: 16)
        memory.storeBytes(of: 0, toByteOffset: 0, as: UInt64.self)
        return UnsafeMutableRawBufferPointer(rebasing: memory[..<count])
    }

    /// The next line, valid until the next call; `nil` at the end of input.
    @inline(__always)
    mutating func next(willBlock: () -> Int32) -> Line? {
        var scanned = start
        while true {
            if let newline = newlineIndex(from: scanned) {
                let line = UnsafeRawBufferPointer(rebasing: buffer[start..<newline])
                start = newline + 1
                return line.count > maximumLineBytes ? .tooLong(bytes: line.count) : .text(line)
            }
            scanned = end
            if end - start > maximumLineBytes { return skipLongLine(willBlock: willBlock) }
            if atEOF {
                guard start < end else { return nil }
                let line = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
                start = end
                return line.count > maximumLineBytes ? .tooLong(bytes: line.count) : .text(line)
            }
            let scannedOffset = scanned - start
            fill(willBlock: willBlock)
            scanned = start + scannedOffset
        }
    }

    /// Skips a UTF-8 byte order mark (EF BB BF) at the start of the input, which an editor may
    /// write before a script's first line: it is no part of the first input, as a final `\r` is
    /// no part of a line. Call once, before the first ``next(willBlock:)``; reads until the first
    /// three bytes (or the first line, or the end of input) are there.
    mutating func skipByteOrderMark(willBlock: () -> Int32) {
        while end - start < 3 && !atEOF && newlineIndex(from: start) == nil { fill(willBlock: willBlock) }
        guard end - start >= 3 else { return }
        let bytes = UnsafeRawBufferPointer(buffer)
        if bytes[start] == 0xEF && bytes[start + 1] == 0xBB && bytes[start + 2] == 0xBF { start += 3 }
    }

    /// The index of the first `\n` in `buffer[index..<end]`, or `nil`. Script lines are short:
    /// their first 32 bytes are searched a word at a time, in line (a call to `memchr` costs
    /// more than the search), and only the rest of a longer line with `memchr`.
    @inline(__always)
    private func newlineIndex(from index: Int) -> Int? {
        Self.newlineIndex(in: UnsafeRawPointer(buffer.baseAddress!), from: index, to: end)
    }

    @inline(__always)
    private static func newlineIndex(in base: UnsafeRawPointer, from index: Int, to end: Int) -> Int? {
        var word = index
        let wordsEnd = min(end, index &+ 32)
        while word < wordsEnd {
            // The bytes equal to `\n` become 0, and a zero byte sets its top bit in `found`;
            // the lowest set bit is exact (bits above it may be set by a borrow).
            let bytes = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: word, as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
            let found = (bytes &- 0x0101_0101_0101_0101) & ~bytes & 0x8080_8080_8080_8080
            if found != 0 {
                let newline = word &+ found.trailingZeroBitCount &>> 3
                return newline < end ? newline : nil
            }
            word &+= 8
        }
        return word < end ? memchrIndex(in: base, from: word, to: end) : nil
    }

    @inline(never)
    private static func memchrIndex(in base: UnsafeRawPointer, from index: Int, to end: Int) -> Int? {
        guard let found = memchr(base + index, Int32(UInt8(ascii: "\n")), end - index) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Makes room (moving the partial line to the front, growing for long lines) and reads once.
    /// Once per block: kept out of the per-line loop.
    @inline(never)
    private mutating func fill(willBlock: () -> Int32) {
        if start > 0 {
            if start < end { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start) }
            end -= start
            start = 0
        }
        if end == buffer.count {
            let grown = Self.allocate(buffer.count * 2)
            grown.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
            buffer.deallocate()
            buffer = grown
        }
        defer { (buffer.baseAddress! + end).storeBytes(of: 0, as: UInt64.self) }
        if !isReadable(timeout: 0) { waitUntilReadable(willBlock: willBlock) }
        while true {
            let n = read(fd, buffer.baseAddress! + end, buffer.count - end)
            if n > 0 {
                end += n
                return
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN {
                waitUntilReadable(willBlock: willBlock)
                continue
            }
            if n < 0 { readError = errno }
            atEOF = true
            return
        }
    }

    /// Calls `willBlock` and waits for input as long as it says; again while it says to wait
    /// for a while and nothing arrives. Returns when input (or the end of it) is there, or
    /// when `willBlock` says to wait without limit: the read that follows blocks.
    private func waitUntilReadable(willBlock: () -> Int32) {
        while true {
            let timeout = willBlock()
            if timeout < 0 || isReadable(timeout: timeout) { return }
        }
    }

    /// Whether a read would not block (input, the end of input, or an error), waiting up to
    /// `timeout` milliseconds for it; `false` when a signal cut the wait short.
    private func isReadable(timeout: Int32) -> Bool {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let result = poll(&ready, 1, timeout)
        return result > 0 || (result < 0 && errno != EINTR)
    }

    /// Discards the rest of an over-long line, reporting how long it was.
    @inline(never)
    private mutating func skipLongLine(willBlock: () -> Int32) -> Line {
        var skipped = 0
        while true {
            if let newline = newlineIndex(from: start) {
                skipped += newline - start
                start = newline + 1
                return .tooLong(bytes: skipped)
            }
            skipped += end - start
            start = end
            if atEOF { return .tooLong(bytes: skipped) }
            fill(willBlock: willBlock)
        }
    }
}
