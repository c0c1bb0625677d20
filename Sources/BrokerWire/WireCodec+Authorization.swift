#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import BrokerModel
import HealthBrokerProto

// The app socket's authorization methods (RequestAuthorization … ReadCharacteristics): their
// requests and responses in both directions. Type identifiers are copied as they are; the server
// validates them.
extension WireCodec {
    // MARK: Requests

    /// Runs `body` with the C form of a RequestAuthorization request, valid only inside `body`.
    static func withCRequestAuthorizationRequest<R>(
        share: [ObjectType], read: [ObjectType],
        _ body: (UnsafeMutablePointer<Healthbroker__V1__RequestAuthorizationRequest>) -> R
    ) -> R {
        withCTypes(share, read) { shareTypes, shareCount, readTypes, readCount in
            var message = Healthbroker__V1__RequestAuthorizationRequest()
            healthbroker__v1__request_authorization_request__init(&message)
            message.n_share_types = shareCount
            message.share_types = shareTypes
            message.n_read_types = readCount
            message.read_types = readTypes
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked RequestAuthorization request.
    static func requestAuthorizationRequest(
        _ message: UnsafePointer<Healthbroker__V1__RequestAuthorizationRequest>
    ) throws(BrokerError) -> Request {
        .requestAuthorization(
            share: try objectTypes(message.pointee.share_types, count: message.pointee.n_share_types, in: "ClientFrame"),
            read: try objectTypes(message.pointee.read_types, count: message.pointee.n_read_types, in: "ClientFrame"))
    }

    /// Runs `body` with the C form of an AuthorizationStatus request, valid only inside `body`.
    static func withCAuthorizationStatusRequest<R>(
        _ type: ObjectType, _ body: (UnsafeMutablePointer<Healthbroker__V1__AuthorizationStatusRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__AuthorizationStatusRequest()
        healthbroker__v1__authorization_status_request__init(&message)
        return type.identifier.withCString { identifier in
            message.type = field(identifier)
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// Runs `body` with the C form of a RequestStatus request, valid only inside `body`.
    static func withCRequestStatusRequest<R>(
        share: [ObjectType], read: [ObjectType],
        _ body: (UnsafeMutablePointer<Healthbroker__V1__RequestStatusRequest>) -> R
    ) -> R {
        withCTypes(share, read) { shareTypes, shareCount, readTypes, readCount in
            var message = Healthbroker__V1__RequestStatusRequest()
            healthbroker__v1__request_status_request__init(&message)
            message.n_share_types = shareCount
            message.share_types = shareTypes
            message.n_read_types = readCount
            message.read_types = readTypes
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked RequestStatus request.
    static func requestStatusRequest(
        _ message: UnsafePointer<Healthbroker__V1__RequestStatusRequest>
    ) throws(BrokerError) -> Request {
        .requestStatus(
            share: try objectTypes(message.pointee.share_types, count: message.pointee.n_share_types, in: "ClientFrame"),
            read: try objectTypes(message.pointee.read_types, count: message.pointee.n_read_types, in: "ClientFrame"))
    }

    /// Runs `body` with the C form of an EarliestAuthorizedSampleDate request, valid only inside `body`.
    static func withCEarliestAuthorizedSampleDateRequest<R>(
        _ types: [ObjectType],
        _ body: (UnsafeMutablePointer<Healthbroker__V1__EarliestAuthorizedSampleDateRequest>) -> R
    ) -> R {
        withCTypes(types) { identifiers, count in
            var message = Healthbroker__V1__EarliestAuthorizedSampleDateRequest()
            healthbroker__v1__earliest_authorized_sample_date_request__init(&message)
            message.n_types = count
            message.types = identifiers
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// Runs `body` with the C form of a ReadCharacteristics request, valid only inside `body`.
    static func withCReadCharacteristicsRequest<R>(
        _ types: [ObjectType], _ body: (UnsafeMutablePointer<Healthbroker__V1__ReadCharacteristicsRequest>) -> R
    ) -> R {
        withCTypes(types) { identifiers, count in
            var message = Healthbroker__V1__ReadCharacteristicsRequest()
            healthbroker__v1__read_characteristics_request__init(&message)
            message.n_types = count
            message.types = identifiers
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    // MARK: Responses

    /// Runs `body` with the C form of an EarliestAuthorizedSampleDate response, valid only inside `body`.
    ///
    /// The entries are sent sorted by identifier (UTF-8 byte order, which is code point order), so
    /// that equal dictionaries encode to equal bytes.
    static func withCEarliestAuthorizedSampleDateResponse<R>(
        _ dates: [ObjectType: Int64],
        _ body: (UnsafeMutablePointer<Healthbroker__V1__EarliestAuthorizedSampleDateResponse>) -> R
    ) -> R {
        withCMessages(
            dates,
            textBytes: { CStringWriter.byteCount(of: $0.key.identifier) },
            initialize: healthbroker__v1__type_date__init,
            fill: { entry, typeDate, writer in
                typeDate.pointee.type = writer.write(entry.key.identifier)
                typeDate.pointee.date_us = entry.value
            }
        ) { typeDates, count in
            // Sorts the pointers in place: no copy of the dictionary.
            var sorted = UnsafeMutableBufferPointer(start: typeDates, count: count)
            sorted.sort { left, right in
                strcmp(left.unsafelyUnwrapped.pointee.type, right.unsafelyUnwrapped.pointee.type) < 0
            }
            var message = Healthbroker__V1__EarliestAuthorizedSampleDateResponse()
            healthbroker__v1__earliest_authorized_sample_date_response__init(&message)
            message.n_dates = count
            message.dates = typeDates
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked EarliestAuthorizedSampleDate response; a type sent twice keeps
    /// its last date.
    static func earliestAuthorizedSampleDates(
        _ message: UnsafePointer<Healthbroker__V1__EarliestAuthorizedSampleDateResponse>
    ) throws(BrokerError) -> TypeDates {
        let count = message.pointee.n_dates
        guard count > 0 else { return [:] }
        guard let typeDates = message.pointee.dates else { throw undecodable("ServerFrame") }
        var entries: [TypeDates.Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            guard let typeDate = typeDates[index] else { throw undecodable("ServerFrame") }
            entries.append(TypeDates.Entry(type: objectType(typeDate.pointee.type), dateMicros: typeDate.pointee.date_us))
        }
        return TypeDates(entries: entries)
    }

    /// Runs `body` with C forms of `values` (a repeated CharacteristicValue field), valid only inside `body`.
    static func withCCharacteristicValues<R>(
        _ values: [CharacteristicValue],
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<Healthbroker__V1__CharacteristicValue>?>, Int) -> R
    ) -> R {
        withCMessages(
            values,
            textBytes: { CStringWriter.byteCount(of: $0.type.identifier) + CStringWriter.byteCount(of: $0.value ?? "") },
            initialize: healthbroker__v1__characteristic_value__init,
            fill: { value, message, writer in
                message.pointee.type = writer.write(value.type.identifier)
                message.pointee.has_value = value.value == nil ? 0 : 1
                message.pointee.value = writer.write(value.value ?? "")
            },
            body)
    }

    /// The Swift form of an unpacked CharacteristicValue; `has_value` false reads as no value.
    static func characteristicValue(_ message: UnsafePointer<Healthbroker__V1__CharacteristicValue>) -> CharacteristicValue {
        CharacteristicValue(
            type: objectType(message.pointee.type),
            value: message.pointee.has_value != 0 ? string(message.pointee.value) : nil)
    }

    // MARK: Enums

    /// The wire form of an authorization status.
    @inline(__always)
    static func cAuthorizationStatus(_ status: AuthorizationStatus) -> Healthbroker__V1__AuthorizationStatus {
        Healthbroker__V1__AuthorizationStatus(rawValue: .init(truncatingIfNeeded: status.rawValue))
    }

    /// A decoded authorization status; numbers this build does not know become `.notDetermined`.
    @inline(__always)
    static func authorizationStatus(_ status: Healthbroker__V1__AuthorizationStatus) -> AuthorizationStatus {
        AuthorizationStatus(rawValue: wireInt32(status.rawValue)) ?? .notDetermined
    }

    /// The wire form of a request status.
    @inline(__always)
    static func cRequestStatus(_ status: RequestStatus) -> Healthbroker__V1__RequestStatus {
        Healthbroker__V1__RequestStatus(rawValue: .init(truncatingIfNeeded: status.rawValue))
    }

    /// A decoded request status; numbers this build does not know become `.unknown`.
    @inline(__always)
    static func requestStatus(_ status: Healthbroker__V1__RequestStatus) -> RequestStatus {
        RequestStatus(rawValue: wireInt32(status.rawValue)) ?? .unknown
    }

    /// An enum field's number as the Int32 the .proto gives it, whatever integer type C imported it as.
    @inline(__always)
    static func wireInt32(_ rawValue: some FixedWidthInteger) -> Int32 {
        Int32(truncatingIfNeeded: rawValue)
    }
}
