/// The calls one connection has in flight, in a fixed number of slots (its depth).
///
/// A slot's call id is `generation × capacity + slot + 1`, so ids stay unique while in flight, a
/// reply finds its slot with one division, and a late or unknown reply (an id whose generation has
/// moved on) is recognised and ignored. Struct-of-arrays storage, no allocation after `init`.
struct CallSlots {
    /// How many calls may be in flight.
    let capacity: Int
    /// When each slot's call started (its intended start, open loop), monotonic nanoseconds.
    private(set) var startTimes: [UInt64]
    /// Each slot's operation index.
    private(set) var operations: [UInt8]
    /// Whether each slot's call is measured.
    private(set) var measured: [Bool]
    /// Stream items received for each slot's call.
    var items: [UInt32]
    /// Samples seen in each slot's stream (verification only).
    var samples: [Int]
    private var generations: [UInt64]
    private var active: [Bool]
    private var free: [Int]

    /// Empty slots for `capacity` calls in flight.
    init(capacity: Int) {
        precondition(capacity > 0, "a connection needs at least one slot")
        self.capacity = capacity
        startTimes = Array(repeating: 0, count: capacity)
        operations = Array(repeating: 0, count: capacity)
        measured = Array(repeating: false, count: capacity)
        items = Array(repeating: 0, count: capacity)
        samples = Array(repeating: 0, count: capacity)
        generations = Array(repeating: 0, count: capacity)
        active = Array(repeating: false, count: capacity)
        free = Array((0..<capacity).reversed())
    }

    /// Calls in flight.
    var inFlight: Int { capacity - free.count }

    /// Whether another call may start.
    var hasFree: Bool { !free.isEmpty }

    /// Takes a free slot for a call of `operation` started at `start`; returns the slot and call id.
    @inline(__always)
    mutating func open(operation: UInt8, start: UInt64, measured isMeasured: Bool) -> (slot: Int, callID: UInt64) {
        let slot = free.removeLast()
        generations[slot] += 1
        active[slot] = true
        startTimes[slot] = start
        operations[slot] = operation
        measured[slot] = isMeasured
        items[slot] = 0
        samples[slot] = 0
        return (slot, generations[slot] &* UInt64(capacity) &+ UInt64(slot) &+ 1)
    }

    /// The slot of the call in flight with `callID`, or nil for an unknown or finished call.
    @inline(__always)
    func slot(forCallID callID: UInt64) -> Int? {
        guard callID > 0 else { return nil }
        let slot = Int((callID - 1) % UInt64(capacity))
        let generation = (callID - 1) / UInt64(capacity)
        guard active[slot], generations[slot] == generation else { return nil }
        return slot
    }

    /// Frees `slot` once its call has ended.
    @inline(__always)
    mutating func close(_ slot: Int) {
        active[slot] = false
        free.append(slot)
    }

    /// The slots with a call in flight.
    var activeSlots: [Int] { (0..<capacity).filter { active[$0] } }
}
