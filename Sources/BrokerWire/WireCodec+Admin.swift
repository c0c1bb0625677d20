import BrokerModel
import HealthBrokerProto

// The admin responses that carry more than a number: credentials and broker info.
extension WireCodec {
    /// Runs `body` with the C form of an AdminAddApp response, valid only inside `body`.
    static func withCAdminAddAppResponse<R>(
        _ credentials: AppCredentials, _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminAddAppResponse>) -> R
    ) -> R {
        var message = Healthbroker__V1__AdminAddAppResponse()
        healthbroker__v1__admin_add_app_response__init(&message)
        return withCAppInfos(CollectionOfOne(credentials.app)) { apps, _ in
            credentials.token.withCString { token in
                message.app = apps[0]
                message.app_token = field(token)
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked AdminAddApp response; throws when the app is missing.
    static func adminAddAppResponse(
        _ message: UnsafePointer<Healthbroker__V1__AdminAddAppResponse>
    ) throws(BrokerError) -> AppCredentials {
        guard let app = message.pointee.app else { throw undecodable("ServerFrame") }
        return AppCredentials(app: appInfo(app), token: string(message.pointee.app_token))
    }

    /// Runs `body` with the C form of an AdminRotateToken response, valid only inside `body`.
    static func withCAdminRotateTokenResponse<R>(
        _ credentials: AppCredentials, _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminRotateTokenResponse>) -> R
    ) -> R {
        var message = Healthbroker__V1__AdminRotateTokenResponse()
        healthbroker__v1__admin_rotate_token_response__init(&message)
        return withCAppInfos(CollectionOfOne(credentials.app)) { apps, _ in
            credentials.token.withCString { token in
                message.app = apps[0]
                message.app_token = field(token)
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked AdminRotateToken response; throws when the app is missing.
    static func adminRotateTokenResponse(
        _ message: UnsafePointer<Healthbroker__V1__AdminRotateTokenResponse>
    ) throws(BrokerError) -> AppCredentials {
        guard let app = message.pointee.app else { throw undecodable("ServerFrame") }
        return AppCredentials(app: appInfo(app), token: string(message.pointee.app_token))
    }

    /// Runs `body` with the C form of an AdminBrokerInfo response, valid only inside `body`.
    static func withCAdminBrokerInfoResponse<R>(
        _ info: BrokerInfo, _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminBrokerInfoResponse>) -> R
    ) -> R {
        var message = Healthbroker__V1__AdminBrokerInfoResponse()
        healthbroker__v1__admin_broker_info_response__init(&message)
        message.started_us = info.startedMicros
        message.app_connections = info.appConnections
        message.admin_connections = info.adminConnections
        message.calls_served = info.callsServed
        message.broker_time_us = info.brokerTimeMicros
        message.frames_sent = info.framesSent
        message.write_calls = info.writeCalls
        message.power_loss_durable = info.powerLossDurable ? 1 : 0
        message.wal_fsyncs = info.walFsyncs
        return info.brokerVersion.withCString { version in
            info.dataDirectory.withCString { dataDirectory in
                message.broker_version = field(version)
                message.data_dir = field(dataDirectory)
                return withUnsafeMutablePointer(to: &message, body)
            }
        }
    }

    /// The Swift form of an unpacked AdminBrokerInfo response.
    static func brokerInfo(_ message: UnsafePointer<Healthbroker__V1__AdminBrokerInfoResponse>) -> BrokerInfo {
        var info = BrokerInfo(
            brokerVersion: string(message.pointee.broker_version),
            startedMicros: message.pointee.started_us,
            appConnections: message.pointee.app_connections,
            adminConnections: message.pointee.admin_connections,
            callsServed: message.pointee.calls_served,
            dataDirectory: string(message.pointee.data_dir),
            brokerTimeMicros: message.pointee.broker_time_us)
        info.framesSent = message.pointee.frames_sent
        info.writeCalls = message.pointee.write_calls
        info.powerLossDurable = message.pointee.power_loss_durable != 0
        info.walFsyncs = message.pointee.wal_fsyncs
        return info
    }
}
