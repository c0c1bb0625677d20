import CLibUV

/// Reinterprets a libuv handle pointer as another handle type that shares its header.
///
/// libuv's handle structs start with the same fields (`uv_handle_t`, then `uv_stream_t`), so a
/// `uv_pipe_t*` may be passed where a `uv_stream_t*` or `uv_handle_t*` is expected.
@inline(__always)
package func uvCast<From, To>(_ pointer: UnsafeMutablePointer<From>, to: To.Type) -> UnsafeMutablePointer<To> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: To.self)
}

/// Allocates zeroed memory for one libuv handle or request of type `T`.
@inline(__always)
package func uvAllocate<T>(_ type: T.Type) -> UnsafeMutablePointer<T> {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    UnsafeMutableRawPointer(pointer).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
    return pointer
}

/// Recovers the owner object stored (unretained or retained) in a handle's `data` field.
@inline(__always)
package func uvOwner<Owner: AnyObject>(_ data: UnsafeMutableRawPointer?, as: Owner.Type) -> Owner {
    Unmanaged<Owner>.fromOpaque(data!).takeUnretainedValue()
}
