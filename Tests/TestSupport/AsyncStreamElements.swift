extension AsyncStream {
    /// The next `count` elements (fewer if the stream ends first).
    public func elements(count: Int) async -> [Element] {
        var elements: [Element] = []
        guard count > 0 else { return elements }
        for await element in self {
            elements.append(element)
            if elements.count == count { break }
        }
        return elements
    }

    /// The next elements, up to and including the first that satisfies `predicate` (all of them
    /// if the stream ends first).
    public func elements(through predicate: (Element) -> Bool) async -> [Element] {
        var elements: [Element] = []
        for await element in self {
            elements.append(element)
            if predicate(element) { break }
        }
        return elements
    }
}
