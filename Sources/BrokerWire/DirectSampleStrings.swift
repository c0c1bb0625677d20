#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BrokerModel

/// The strings that repeat from sample to sample of a page (source app, type, unit, activity,
/// metadata key): each made once per run of equal bytes and shared after, rather than decoded (and
/// allocated) again for every sample.
struct DirectSampleStrings {
    private var lastSourceAppID = Repeated<String>()
    private var lastType = Repeated<ObjectType>()
    private var lastUnit = Repeated<String>()
    private var lastActivityType = Repeated<String>()
    private var lastMetadataKey = Repeated<String>()

    /// A `source_app_id` field's string.
    @inline(__always)
    mutating func sourceAppID(_ field: UnsafeBufferPointer<UInt8>) -> String {
        lastSourceAppID.value(for: field, WireCodec.fieldString)
    }

    /// A `type` field's type.
    @inline(__always)
    mutating func type(_ field: UnsafeBufferPointer<UInt8>) -> ObjectType {
        lastType.value(for: field, WireCodec.objectType)
    }

    /// A quantity's `unit` field's string.
    @inline(__always)
    mutating func unit(_ field: UnsafeBufferPointer<UInt8>) -> String {
        lastUnit.value(for: field, WireCodec.fieldString)
    }

    /// A workout's `activity_type` field's string.
    @inline(__always)
    mutating func activityType(_ field: UnsafeBufferPointer<UInt8>) -> String {
        lastActivityType.value(for: field, WireCodec.fieldString)
    }

    /// A metadata entry's `key` field's string.
    @inline(__always)
    mutating func metadataKey(_ field: UnsafeBufferPointer<UInt8>) -> String {
        lastMetadataKey.value(for: field, WireCodec.fieldString)
    }

    /// The value decoded from the last field bytes seen (which stay valid for the whole decode), kept
    /// to be reused when the next field has the same bytes.
    struct Repeated<Value> {
        private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        private var last: Value?

        /// The value of `field`: the kept one when `field` has the same bytes as the last, else `make`'s.
        @inline(__always)
        mutating func value(
            for field: UnsafeBufferPointer<UInt8>, _ make: (UnsafeBufferPointer<UInt8>) -> Value
        ) -> Value {
            if let last, field.count == bytes.count, Self.equal(field, bytes) { return last }
            let made = make(field)
            bytes = field
            last = made
            return made
        }

        /// Whether two buffers of the same count hold the same bytes: compared a word at a time in line
        /// (the fields are short), by `memcmp` past 64 bytes.
        @inline(__always)
        private static func equal(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
            let count = left.count
            guard count > 0 else { return true }
            let leftBase = UnsafeRawPointer(left.baseAddress.unsafelyUnwrapped)
            let rightBase = UnsafeRawPointer(right.baseAddress.unsafelyUnwrapped)
            guard count <= 64 else { return memcmp(leftBase, rightBase, count) == 0 }
            var offset = 0
            while offset + 8 <= count {
                if leftBase.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    != rightBase.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                {
                    return false
                }
                offset += 8
            }
            while offset < count {
                if leftBase.load(fromByteOffset: offset, as: UInt8.self)
                    != rightBase.load(fromByteOffset: offset, as: UInt8.self)
                {
                    return false
                }
                offset += 1
            }
            return true
        }
    }
}
