/// The sizes of a message's nested messages, measured once before writing and read back in the
/// same order while writing, so no nested message is measured twice.
///
/// The first few sizes live inline: a reply nests only two or three messages, and needs no heap
/// allocation to be encoded.
public struct ProtoSizes {
    private var inline: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var spilled: [Int] = []
    private var count = 0
    private var cursor = 0
    private static let inlineCapacity = 8

    /// No sizes yet.
    public init() {}

    /// Reserves the next slot, in the order the writer reads them, and returns its index.
    @inline(__always)
    public mutating func reserve() -> Int {
        defer { count += 1 }
        if count >= Self.inlineCapacity { spilled.append(0) }
        return count
    }

    /// The size in slot `index`.
    public subscript(index: Int) -> Int {
        @inline(__always) get {
            if index < Self.inlineCapacity {
                return withUnsafeBytes(of: inline) { $0.load(fromByteOffset: index * MemoryLayout<Int>.stride, as: Int.self) }
            }
            return spilled[index - Self.inlineCapacity]
        }
        @inline(__always) set {
            if index < Self.inlineCapacity {
                withUnsafeMutableBytes(of: &inline) {
                    $0.storeBytes(of: newValue, toByteOffset: index * MemoryLayout<Int>.stride, as: Int.self)
                }
            } else {
                spilled[index - Self.inlineCapacity] = newValue
            }
        }
    }

    /// Starts reading the sizes from the first slot.
    @inline(__always)
    public mutating func rewind() { cursor = 0 }

    /// The next size, in reservation order.
    @inline(__always)
    public mutating func next() -> Int {
        defer { cursor += 1 }
        return self[cursor]
    }
}
