import Hummingbird
import NIOCore

/// Reads a request's body whole, up to a size: a larger one is refused with 413 as soon as it
/// is known to be larger (from `Content-Length`, or while it arrives).
enum RequestBodyReader {
    static func read(_ request: Request, maximumBytes: Int) async throws -> [UInt8] {
        // `headers[values:]`, not `headers[name]`, which joins the values through generic code
        // (some 3,400 instructions a request).
        let lengths = request.headers[values: .contentLength]
        if lengths.count == 1, let length = Int(lengths[0]), length > maximumBytes {
            throw HTTPError(.contentTooLarge, message: "the request body has \(length) bytes, more than --max-body-bytes \(maximumBytes)")
        }
        var bytes: [UInt8] = []
        for try await buffer in request.body {
            guard bytes.count + buffer.readableBytes <= maximumBytes else {
                throw HTTPError(.contentTooLarge, message: "the request body is longer than --max-body-bytes \(maximumBytes)")
            }
            bytes += buffer.readableBytesView
        }
        return bytes
    }
}
