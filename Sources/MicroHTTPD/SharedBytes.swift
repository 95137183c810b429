/// Immutable bytes that any number of responses send without copying them: a cached
/// document answered again and again.
///
/// The bytes are copied once, into memory this object owns, when it is made. Each response
/// that sends them holds a reference until libmicrohttpd has written it and destroyed the
/// response, so the memory outlives every send; it is freed with the last reference. Nothing
/// ever writes to it after `init`, which is what makes it safe to share between threads.
public final class SharedBytes: Sendable {
    // Sendable because the buffer is written only in `init`, before the object is shared,
    // and only read afterwards; it is freed in `deinit`, when no reference is left.
    private nonisolated(unsafe) let buffer: UnsafeMutableRawBufferPointer

    public init(_ bytes: some Collection<UInt8>) {
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        // Called from other modules, this generic code is not specialized: copying through
        // the iterator would cost a witness call per byte, so contiguous bytes (an array) are
        // copied at once.
        let copied: Void? = bytes.withContiguousStorageIfAvailable { [buffer] in
            buffer.copyMemory(from: UnsafeRawBufferPointer($0))
        }
        if copied == nil { _ = buffer.initializeMemory(as: UInt8.self, from: bytes) }
    }

    deinit {
        buffer.deallocate()
    }

    public var count: Int { buffer.count }

    /// The bytes, copied into an array.
    public var bytes: [UInt8] { Array(buffer) }

    /// The start of the bytes, for libmicrohttpd; valid while this object lives.
    var baseAddress: UnsafeMutableRawPointer? { buffer.baseAddress }
}
