import Synchronization

/// What observers saw, appended from any thread.
public final class Log<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    public init() {}

    public func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    public var elements: [Element] {
        storage.withLock { $0 }
    }

    public var last: Element? { elements.last }
}
