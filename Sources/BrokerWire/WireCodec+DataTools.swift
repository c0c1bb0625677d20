import BrokerModel
import HealthBrokerProto

// The admin socket's data tools: AdminImport, AdminExport and AdminAccessLog, in both directions.
// An optional app id or type travels as "" when nil (and "" decodes as nil).
extension WireCodec {
    /// Runs `body` with the C form of an AdminImport request, valid only inside `body`.
    static func withCAdminImportRequest<R>(
        appID: String, samples: [Sample], _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminImportRequest>) -> R
    ) -> R {
        withCSamples(samples) { list, count in
            appID.withCString { appID in
                var message = Healthbroker__V1__AdminImportRequest()
                healthbroker__v1__admin_import_request__init(&message)
                message.app_id = field(appID)
                message.n_samples = count
                message.samples = list
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked AdminImport request; `.invalid` when a sample has no value this
    /// build knows.
    static func adminImportRequest(
        _ message: UnsafePointer<Healthbroker__V1__AdminImportRequest>
    ) throws(BrokerError) -> Request {
        if let error = sampleValueError(message.pointee.samples, count: message.pointee.n_samples) {
            return .invalid(InvalidRequest(.adminImport(appID: "", samples: []), error: error))
        }
        return .adminImport(
            appID: string(message.pointee.app_id),
            samples: try samples(message.pointee.samples, count: message.pointee.n_samples, in: "ClientFrame"))
    }

    /// Runs `body` with the C form of an AdminExport request, valid only inside `body`.
    static func withCAdminExportRequest<R>(
        type: ObjectType?, appID: String?, _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminExportRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__AdminExportRequest()
        healthbroker__v1__admin_export_request__init(&message)
        return (type?.identifier ?? "").withCString { type in
            (appID ?? "").withCString { appID in
                message.type = field(type)
                message.app_id = field(appID)
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked AdminExport request.
    static func adminExportRequest(_ message: UnsafePointer<Healthbroker__V1__AdminExportRequest>) -> Request {
        let type = string(message.pointee.type)
        let appID = string(message.pointee.app_id)
        return .adminExport(type: type.isEmpty ? nil : ObjectType(type), appID: appID.isEmpty ? nil : appID)
    }

    /// Runs `body` with the C form of an AdminAccessLog request, valid only inside `body`.
    static func withCAdminAccessLogRequest<R>(
        appID: String?, limit: UInt32, _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminAccessLogRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__AdminAccessLogRequest()
        healthbroker__v1__admin_access_log_request__init(&message)
        message.limit = limit
        return (appID ?? "").withCString { appID in
            message.app_id = field(appID)
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked AdminAccessLog request.
    static func adminAccessLogRequest(_ message: UnsafePointer<Healthbroker__V1__AdminAccessLogRequest>) -> Request {
        let appID = string(message.pointee.app_id)
        return .adminAccessLog(appID: appID.isEmpty ? nil : appID, limit: message.pointee.limit)
    }

    /// Runs `body` with the C form of an AdminAccessLog response, valid only inside `body`.
    static func withCAdminAccessLogResponse<R>(
        _ entries: [AccessLogEntry], _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminAccessLogResponse>) -> R
    ) -> R {
        withCMessages(
            entries,
            textBytes: {
                CStringWriter.byteCount(of: $0.appID) + CStringWriter.byteCount(of: $0.operation)
                    + CStringWriter.byteCount(of: $0.type.identifier)
            },
            initialize: healthbroker__v1__access_log_entry__init,
            fill: { entry, message, writer in
                message.pointee.at_us = entry.atMicros
                message.pointee.app_id = writer.write(entry.appID)
                message.pointee.operation = writer.write(entry.operation)
                message.pointee.type = writer.write(entry.type.identifier)
                message.pointee.sample_count = entry.sampleCount
            }
        ) { entries, count in
            var message = Healthbroker__V1__AdminAccessLogResponse()
            healthbroker__v1__admin_access_log_response__init(&message)
            message.n_entries = count
            message.entries = entries
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked AccessLogEntry.
    static func accessLogEntry(_ message: UnsafePointer<Healthbroker__V1__AccessLogEntry>) -> AccessLogEntry {
        AccessLogEntry(
            atMicros: message.pointee.at_us,
            appID: string(message.pointee.app_id),
            operation: string(message.pointee.operation),
            type: objectType(message.pointee.type),
            sampleCount: message.pointee.sample_count)
    }
}
