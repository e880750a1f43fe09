import Foundation

/// A first-in, first-out queue between two pipeline stages, holding at most `capacity`
/// items: a fast producer waits for a slow consumer, so memory stays flat however long the clip.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element?] = []
    private var head = 0
    private let capacity: Int
    private var closed = false
    private var cancelled = false

    init(capacity: Int) { self.capacity = max(1, capacity) }

    private var count: Int { items.count - head }

    /// Adds an item, waiting while the queue is full; false once the queue is cancelled.
    @discardableResult
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// The next item, waiting while the queue is empty; nil once it is closed and drained, or cancelled.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0 && !closed && !cancelled { condition.wait() }
        guard !cancelled, count > 0 else { return nil }
        let element = items[head]
        items[head] = nil
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return element
    }

    /// No more items will come: consumers get the rest, then nil.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops both sides at once, dropping what is queued (a stage failed).
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}
