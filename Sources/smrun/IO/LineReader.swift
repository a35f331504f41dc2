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
/// file or a fast pipe is read at full speed.
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
        buffer = .allocate(byteCount: blockSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// The next line, valid until the next call; `nil` at the end of input.
    mutating func next(willBlock: () -> Void) -> Line? {
        var scanned = start
        while true {
            if let newline = memchrIndex(from: scanned) {
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

    private func memchrIndex(from index: Int) -> Int? {
        guard index < end, let base = buffer.baseAddress,
            let found = memchr(base + index, Int32(UInt8(ascii: "\n")), end - index)
        else { return nil }
        return base.distance(to: UnsafeMutableRawPointer(found))
    }

    /// Makes room (moving the partial line to the front, growing for long lines) and reads once.
    /// Once per block: kept out of the per-line loop.
    @inline(never)
    private mutating func fill(willBlock: () -> Void) {
        if start > 0 {
            if start < end { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start) }
            end -= start
            start = 0
        }
        if end == buffer.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
            grown.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: end)
            buffer.deallocate()
            buffer = grown
        }
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        if poll(&ready, 1, 0) == 0 { willBlock() }
        while true {
            let n = read(fd, buffer.baseAddress! + end, buffer.count - end)
            if n > 0 {
                end += n
                return
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN {
                willBlock()
                poll(&ready, 1, -1)
                continue
            }
            if n < 0 { readError = errno }
            atEOF = true
            return
        }
    }

    /// Discards the rest of an over-long line, reporting how long it was.
    @inline(never)
    private mutating func skipLongLine(willBlock: () -> Void) -> Line {
        var skipped = 0
        while true {
            if let newline = memchrIndex(from: start) {
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
