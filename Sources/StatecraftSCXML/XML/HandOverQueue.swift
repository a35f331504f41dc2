/// A first-in, first-out queue whose items are moved in and moved out, never copied: what the
/// XML parser reads ahead of the decoder waits here, and an element handed over this way costs
/// no reference counting (an array's subscript copies, and its `removeAll` destroys again).
///
/// Used from one thread, by one reader at a time: its properties go without the runtime's
/// exclusivity checks.
final class HandOverQueue<Item> {
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Item>
    @exclusivity(unchecked) private var capacity: Int
    /// The items waiting are those from `start` to `end`.
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 1)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        (storage + start).deinitialize(count: end - start)
        storage.deallocate()
    }

    var isEmpty: Bool { start == end }

    /// Adds `item` at the back.
    func append(_ item: consuming Item) {
        if end == capacity { makeRoom() }
        (storage + end).initialize(to: item)
        end += 1
    }

    /// Takes the item at the back; the queue must not be empty.
    func removeLast() -> Item {
        precondition(start < end, "taking from an empty queue")
        end -= 1
        let item = (storage + end).move()
        if start == end {
            start = 0
            end = 0
        }
        return item
    }

    /// Takes the item at the front; the queue must not be empty.
    func removeFirst() -> Item {
        precondition(start < end, "taking from an empty queue")
        let item = (storage + start).move()
        start += 1
        if start == end {
            start = 0
            end = 0
        }
        return item
    }

    /// Moves the waiting items to the front, and doubles the storage when they fill half of it.
    private func makeRoom() {
        let count = end - start
        if count * 2 > capacity {
            let larger = UnsafeMutablePointer<Item>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: storage + start, count: count)
            storage.deallocate()
            storage = larger
            capacity *= 2
        } else {
            storage.moveInitialize(from: storage + start, count: count)
        }
        start = 0
        end = count
    }
}
