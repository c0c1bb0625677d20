/// A min-heap of deadlines with lazy cancellation: many per-call timers served by one libuv timer.
///
/// Pure data structure (no libuv), so it is unit-testable; `EventLoop` owns one and arms a single
/// `LoopTimer` for its earliest deadline.
struct TimerHeap<Payload> {
    private struct Entry {
        var deadline: Int64
        var id: UInt64
    }

    private var heap: [Entry] = []
    private var payloads: [UInt64: Payload] = [:]
    private var nextID: UInt64 = 1

    /// Live (not cancelled) timers.
    var count: Int { payloads.count }

    /// Adds a timer; returns its id for cancellation.
    mutating func insert(deadline: Int64, _ payload: Payload) -> UInt64 {
        let id = nextID
        nextID += 1
        payloads[id] = payload
        heap.append(Entry(deadline: deadline, id: id))
        siftUp(heap.count - 1)
        return id
    }

    /// Cancels a timer; returns false when it already fired or was cancelled.
    @discardableResult
    mutating func cancel(_ id: UInt64) -> Bool {
        payloads.removeValue(forKey: id) != nil
    }

    /// The earliest live deadline, dropping cancelled entries from the top.
    mutating func earliestDeadline() -> Int64? {
        while let top = heap.first {
            if payloads[top.id] != nil { return top.deadline }
            popTop()
        }
        return nil
    }

    /// Removes and returns every live timer due at or before `now`, earliest first.
    mutating func popDue(now: Int64) -> [Payload] {
        var due: [Payload] = []
        while let top = heap.first, top.deadline <= now {
            popTop()
            if let payload = payloads.removeValue(forKey: top.id) { due.append(payload) }
        }
        return due
    }

    private mutating func popTop() {
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            if heap[parent].deadline <= heap[child].deadline { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
