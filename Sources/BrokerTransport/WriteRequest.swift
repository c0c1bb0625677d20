import CLibUV

/// Owns one `uv_write_t` and the bytes it writes, until libuv calls back.
final class WriteRequest {
    private let request: UnsafeMutablePointer<uv_write_t>
    private let bytes: UnsafeMutableRawBufferPointer
    private let completion: (Int32) -> Void

    /// The number of bytes this request writes.
    var byteCount: Int { bytes.count }

    /// Copies `source` and starts writing it to `stream`; `completion` gets libuv's status later.
    ///
    /// Throws, without ever calling `completion`, when `uv_write` fails at once: the caller may still
    /// be borrowing what `completion` would change (`PipeConnection.flush` borrows its output
    /// buffer while this runs, and closing the connection replaces that buffer).
    init(stream: UnsafeMutablePointer<uv_stream_t>, copying source: UnsafeRawBufferPointer, completion: @escaping (Int32) -> Void) throws(UVError) {
        self.completion = completion
        request = uvAllocate(uv_write_t.self)
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: source.count, alignment: 1)
        bytes.copyMemory(from: source)
        request.pointee.data = Unmanaged.passRetained(self).toOpaque()
        var buffer = uv_buf_init(bytes.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
        let result = uv_write(request, stream, &buffer, 1) { request, status in
            let owner = Unmanaged<WriteRequest>.fromOpaque(request!.pointee.data!).takeRetainedValue()
            owner.completion(status)
        }
        if result < 0 {
            // libuv will not call back: drop the handle's reference; deinit frees the memory.
            Unmanaged<WriteRequest>.fromOpaque(request.pointee.data!).release()
            throw UVError(code: result, operation: "uv_write")
        }
    }

    deinit {
        bytes.deallocate()
        request.deallocate()
    }
}
