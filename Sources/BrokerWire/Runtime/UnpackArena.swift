#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HealthBrokerProto

/// A protobuf-c allocator that hands out memory from a caller's scratch buffer, falling back to malloc.
///
/// protobuf-c's unpack allocates the message, every sub-message, string and bytes field separately;
/// with the default allocator a small call costs several malloc/free pairs. Decoding through an
/// arena on the stack makes a typical frame allocation-free. Frees of arena memory are no-ops;
/// anything that did not fit came from malloc and is freed normally by `free_unpacked`, which is
/// not called at all when nothing did (it would only walk the message to free nothing).
struct UnpackArena {
    /// Bytes of stack scratch space used per decode; enough for every small message of the protocol.
    static let scratchBytes = 1024
    /// The alignment of every block handed out (malloc's on 64-bit Linux).
    static let alignment = 16

    private let base: UnsafeMutableRawPointer
    private let capacity: Int
    private var used = 0
    /// True once a block did not fit and came from malloc.
    private(set) var spilled = false

    private init(base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Runs `body` with an allocator backed by fresh stack scratch space, valid only inside `body`;
    /// `spilled()` tells whether any block so far came from malloc.
    @inline(__always)
    static func withAllocator<R, E: Error>(
        _ body: (UnsafeMutablePointer<ProtobufCAllocator>, _ spilled: () -> Bool) throws(E) -> R
    ) throws(E) -> R {
        try withUnsafeTemporaryAllocation(byteCount: scratchBytes, alignment: alignment) { scratch throws(E) in
            var arena = UnpackArena(base: scratch.baseAddress.unsafelyUnwrapped, capacity: scratch.count)
            return try withUnsafeMutablePointer(to: &arena) { arenaPointer throws(E) in
                var allocator = ProtobufCAllocator(
                    alloc: { data, size in UnpackArena.allocate(data, size) },
                    free: { data, pointer in UnpackArena.release(data, pointer) },
                    allocator_data: UnsafeMutableRawPointer(arenaPointer))
                return try withUnsafeMutablePointer(to: &allocator) { allocator throws(E) in
                    try body(allocator) { arenaPointer.pointee.spilled }
                }
            }
        }
    }

    private static func allocate(_ data: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        let arena = data.unsafelyUnwrapped.assumingMemoryBound(to: UnpackArena.self)
        let offset = (arena.pointee.used + alignment - 1) & ~(alignment - 1)
        if size <= arena.pointee.capacity - offset {
            arena.pointee.used = offset + size
            return arena.pointee.base + offset
        }
        arena.pointee.spilled = true
        return malloc(max(size, 1))
    }

    private static func release(_ data: UnsafeMutableRawPointer?, _ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        let arena = data.unsafelyUnwrapped.assumingMemoryBound(to: UnpackArena.self)
        let base = arena.pointee.base
        if pointer >= base && pointer <= base + arena.pointee.capacity { return }
        free(pointer)
    }
}
