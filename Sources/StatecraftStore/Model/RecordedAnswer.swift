/// An answer kept under an idempotency key: a repeat of the request with an equal body gets it
/// again (status, headers and body), whatever happened since.
package struct RecordedAnswer: Sendable, Equatable {
    package var status: Int
    /// The `ETag` header's version, if any.
    package var version: Int?
    /// The `Location` header, if any.
    package var location: String?
    package var body: [UInt8]

    package init(status: Int, version: Int? = nil, location: String? = nil, body: [UInt8]) {
        self.status = status
        self.version = version
        self.location = location
        self.body = body
    }
}

/// An idempotency record: the request's body (to tell a repeat from a different request under
/// the same key) and the answer it got.
package struct IdempotencyRecord: Sendable, Equatable {
    package var request: [UInt8]
    package var answer: RecordedAnswer
    /// The instance the request named (a create's too), so that deleting it drops the record.
    package var instanceKey: String
    package var expires: Int

    package init(request: [UInt8], answer: RecordedAnswer, instanceKey: String, expires: Int) {
        self.request = request
        self.answer = answer
        self.instanceKey = instanceKey
        self.expires = expires
    }
}
