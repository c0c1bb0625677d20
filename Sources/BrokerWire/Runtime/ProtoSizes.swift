/// What measuring a message found, kept for writing it: the size of every nested message and the
/// byte count of every string (its C length, up to the first NUL), pushed while measuring and read
/// back in the same order while writing, so no nested message is measured twice and no string's
/// length is counted twice.
///
/// A leaf message (numbers and bytes only) keeps nothing: it is cheaper to measure again when
/// written. The first `inlineCount` entries live in the value itself, so a small reply (a few type
/// identifiers) allocates nothing; a page of samples spills into one array.
public struct ProtoSizes {
    /// The entries kept without allocating.
    static let inlineCount = 8
    private var head: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    // nil until more than `inlineCount` entries: an empty array would still cost a retain and a
    // release per frame.
    private var tail: [Int]? = nil
    private var count = 0
    private var cursor = 0

    /// No sizes yet.
    @inline(__always)
    public init() {}

    /// Keeps `value` as the next entry, in the order the writer reads them.
    @inline(__always)
    public mutating func push(_ value: Int) {
        if count < Self.inlineCount {
            let offset = count &* MemoryLayout<Int>.stride
            withUnsafeMutableBytes(of: &head) { $0.storeBytes(of: value, toByteOffset: offset, as: Int.self) }
        } else {
            // One allocation for a page instead of growing 1, 2, 4, 8 … entries.
            if tail == nil { tail = []; tail!.reserveCapacity(64) }
            tail!.append(value)
        }
        count &+= 1
    }

    /// Reserves the next entry (for a nested message's size, set once measured) and returns its index.
    @inline(__always)
    public mutating func reserve() -> Int {
        push(0)
        return count &- 1
    }

    /// The entry at `index`.
    public subscript(index: Int) -> Int {
        @inline(__always) get {
            if index < Self.inlineCount {
                return withUnsafeBytes(of: head) { $0.load(fromByteOffset: index &* MemoryLayout<Int>.stride, as: Int.self) }
            }
            return tail.unsafelyUnwrapped[index &- Self.inlineCount]
        }
        @inline(__always) set {
            if index < Self.inlineCount {
                withUnsafeMutableBytes(of: &head) {
                    $0.storeBytes(of: newValue, toByteOffset: index &* MemoryLayout<Int>.stride, as: Int.self)
                }
            } else {
                tail![index &- Self.inlineCount] = newValue
            }
        }
    }

    /// Starts reading the entries from the first.
    @inline(__always)
    public mutating func rewind() { cursor = 0 }

    /// The next entry, in the order they were kept.
    @inline(__always)
    public mutating func next() -> Int {
        let index = cursor
        cursor &+= 1
        if index < Self.inlineCount {
            return withUnsafeMutableBytes(of: &head) { $0.load(fromByteOffset: index &* MemoryLayout<Int>.stride, as: Int.self) }
        }
        return tail.unsafelyUnwrapped[index &- Self.inlineCount]
    }
}
