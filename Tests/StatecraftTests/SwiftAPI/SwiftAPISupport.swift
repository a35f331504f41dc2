import Synchronization

/// What observers saw, appended from any thread.
final class Log<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    var elements: [Element] {
        storage.withLock { $0 }
    }

    var last: Element? { elements.last }
}

extension AsyncStream {
    /// The next `count` elements (fewer if the stream ends first).
    func elements(count: Int) async -> [Element] {
        var elements: [Element] = []
        for await element in self {
            elements.append(element)
            if elements.count == count { break }
        }
        return elements
    }

    /// The next elements, up to and including the first that satisfies `predicate`.
    func elements(through predicate: (Element) -> Bool) async -> [Element] {
        var elements: [Element] = []
        for await element in self {
            elements.append(element)
            if predicate(element) { break }
        }
        return elements
    }
}
