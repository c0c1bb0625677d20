#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BrokerModel
import HealthBrokerProto

// Conversions of scalar protobuf-c field values (strings, bytes, enums) in both directions.
extension WireCodec {
    /// A decoded string field; invalid UTF-8 is repaired, NULL reads as "".
    @inline(__always)
    static func string(_ cString: UnsafePointer<CChar>?) -> String {
        guard let cString else { return "" }
        let count = strlen(cString)
        guard count > 0 else { return "" }
        return UnsafeRawPointer(cString).withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }

    /// A decoded type identifier field: a catalogued identifier comes back as the catalogue's shared
    /// value (no string allocated), any other as `ObjectType(string(cString))`.
    @inline(__always)
    static func objectType(_ cString: UnsafePointer<CChar>?) -> ObjectType {
        guard let cString else { return ObjectType("") }
        let count = strlen(cString)
        let known = UnsafeRawPointer(cString).withMemoryRebound(to: UInt8.self, capacity: count) {
            TypeCatalogue.knownType(utf8: UnsafeBufferPointer(start: $0, count: count))
        }
        return known ?? ObjectType(string(cString))
    }

    /// A decoded bytes field.
    @inline(__always)
    static func bytes(_ data: ProtobufCBinaryData) -> [UInt8] {
        guard data.len > 0, let base = data.data else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: data.len))
    }

    /// A bytes field pointing at `buffer` (which must outlive the packing).
    @inline(__always)
    static func binaryData(_ buffer: UnsafeBufferPointer<UInt8>) -> ProtobufCBinaryData {
        ProtobufCBinaryData(len: buffer.count, data: UnsafeMutablePointer(mutating: buffer.baseAddress))
    }

    /// A string field pointing at `cString` (which must outlive the packing).
    @inline(__always)
    static func field(_ cString: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar> {
        UnsafeMutablePointer(mutating: cString)
    }

    /// A decoded status code; numbers this build does not know become `.unknown`.
    @inline(__always)
    static func statusCode(_ code: Healthbroker__V1__StatusCode) -> StatusCode {
        StatusCode(wireValue: Int32(bitPattern: UInt32(truncatingIfNeeded: code.rawValue)))
    }

    /// A decoded domain code; numbers this build does not know become `.none`.
    @inline(__always)
    static func domainCode(_ domain: Healthbroker__V1__DomainCode) -> DomainCode {
        DomainCode(wireValue: Int32(bitPattern: UInt32(truncatingIfNeeded: domain.rawValue)))
    }

    /// The wire form of a status code.
    @inline(__always)
    static func cStatusCode(_ code: StatusCode) -> Healthbroker__V1__StatusCode {
        Healthbroker__V1__StatusCode(rawValue: .init(truncatingIfNeeded: code.rawValue))
    }

    /// The wire form of a domain code.
    @inline(__always)
    static func cDomainCode(_ domain: DomainCode) -> Healthbroker__V1__DomainCode {
        Healthbroker__V1__DomainCode(rawValue: .init(truncatingIfNeeded: domain.rawValue))
    }
}
