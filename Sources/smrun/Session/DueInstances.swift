/// The instances of a `--by-key` run that have a timer pending, by its due time: a binary
/// min-heap of (due, instance) that may hold stale pairs (an instance whose next timer changed
/// since), which the caller skips when it pops them.
struct DueInstances {
    private var heap: [(due: Int, id: Int32)] = []

    mutating func insert(due: Int, id: Int) {
        heap.append((due, Int32(id)))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// The earliest pair, if it is due by `time`, removed.
    mutating func popDue(by time: Int) -> (due: Int, id: Int)? {
        guard let first = heap.first, first.due <= time else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { break }
                let right = left + 1
                let smaller = right < heap.count && heap[right].due < heap[left].due ? right : left
                guard heap[smaller].due < heap[parent].due else { break }
                heap.swapAt(smaller, parent)
                parent = smaller
            }
        }
        return (first.due, Int(first.id))
    }
}
