/// The sizes of a message's nested messages, measured once before writing and read back in the
/// same order while writing, so no nested message is measured twice.
///
/// Only messages that hold messages of their own take a slot (a leaf message is cheaper to measure
/// again when written), so a reply of leaf messages allocates nothing here, and a page of samples
/// takes one slot per sample.
public struct ProtoSizes {
    // nil until a slot is reserved: an empty array would still cost a retain and a release per frame.
    private var slots: [Int]? = nil
    private var cursor = 0

    /// No sizes yet.
    @inline(__always)
    public init() {}

    /// Reserves the next slot, in the order the writer reads them, and returns its index.
    @inline(__always)
    public mutating func reserve() -> Int {
        // One allocation for a typical reply instead of growing 1, 2, 4, 8 slots.
        if slots == nil { slots = []; slots!.reserveCapacity(16) }
        slots!.append(0)
        return slots!.count - 1
    }

    /// The size in slot `index`.
    public subscript(index: Int) -> Int {
        @inline(__always) get { slots.unsafelyUnwrapped[index] }
        @inline(__always) set { slots![index] = newValue }
    }

    /// Starts reading the sizes from the first slot.
    @inline(__always)
    public mutating func rewind() { cursor = 0 }

    /// The next size, in reservation order.
    @inline(__always)
    public mutating func next() -> Int {
        defer { cursor += 1 }
        return slots.unsafelyUnwrapped[cursor]
    }
}
