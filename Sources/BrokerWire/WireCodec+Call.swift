import BrokerCore
import HealthBrokerProto

// Call, and its `request` oneof, in both directions.
extension WireCodec {
    /// Runs `body` with the C form of `call`, valid only inside `body`; `.unknown` sets no request.
    static func withCCall<R>(_ call: Call, _ body: (UnsafeMutablePointer<Healthbroker__V1__Call>) -> R) -> R {
        var message = Healthbroker__V1__Call()
        healthbroker__v1__call__init(&message)
        message.call_id = call.callID
        message.timeout_us = call.timeoutMicros
        message.initial_credit = call.initialCredit
        switch call.request {
        case .hello(let request):
            return withCHelloRequest(request) { hello in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_HELLO
                message.hello = hello
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .ping(let request):
            return withCPingRequest(request) { ping in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_PING
                message.ping = ping
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .pingStream(let request):
            return withCPingStreamRequest(request) { pingStream in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_PING_STREAM
                message.ping_stream = pingStream
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminAddApp(let registration):
            return withCAdminAddAppRequest(registration) { addApp in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ADD_APP
                message.admin_add_app = addApp
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminListApps:
            var request = Healthbroker__V1__AdminListAppsRequest()
            healthbroker__v1__admin_list_apps_request__init(&request)
            return withUnsafeMutablePointer(to: &request) { listApps in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_LIST_APPS
                message.admin_list_apps = listApps
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminRemoveApp(let appID):
            var request = Healthbroker__V1__AdminRemoveAppRequest()
            healthbroker__v1__admin_remove_app_request__init(&request)
            return appID.withCString { appID in
                request.app_id = field(appID)
                return withUnsafeMutablePointer(to: &request) { removeApp in
                    message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_REMOVE_APP
                    message.admin_remove_app = removeApp
                    return withUnsafeMutablePointer(to: &message, body)
                }
            }
        case .adminRotateToken(let appID):
            var request = Healthbroker__V1__AdminRotateTokenRequest()
            healthbroker__v1__admin_rotate_token_request__init(&request)
            return appID.withCString { appID in
                request.app_id = field(appID)
                return withUnsafeMutablePointer(to: &request) { rotateToken in
                    message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ROTATE_TOKEN
                    message.admin_rotate_token = rotateToken
                    return withUnsafeMutablePointer(to: &message, body)
                }
            }
        case .adminBrokerInfo:
            var request = Healthbroker__V1__AdminBrokerInfoRequest()
            healthbroker__v1__admin_broker_info_request__init(&request)
            return withUnsafeMutablePointer(to: &request) { brokerInfo in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_BROKER_INFO
                message.admin_broker_info = brokerInfo
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .unknown:
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked Call; a request case this build does not know is `.unknown`.
    static func call(_ message: UnsafePointer<Healthbroker__V1__Call>) throws(BrokerError) -> Call {
        let call = message.pointee
        let request: Request
        switch call.request_case {
        case HEALTHBROKER__V1__CALL__REQUEST_HELLO:
            request = .hello(helloRequest(try present(call.hello, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_PING:
            request = .ping(pingRequest(try present(call.ping, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_PING_STREAM:
            request = .pingStream(pingStreamRequest(try present(call.ping_stream, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ADD_APP:
            request = .adminAddApp(appRegistration(try present(call.admin_add_app, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_LIST_APPS:
            request = .adminListApps
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_REMOVE_APP:
            let removeApp = try present(call.admin_remove_app, in: "ClientFrame")
            request = .adminRemoveApp(appID: string(removeApp.pointee.app_id))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ROTATE_TOKEN:
            let rotateToken = try present(call.admin_rotate_token, in: "ClientFrame")
            request = .adminRotateToken(appID: string(rotateToken.pointee.app_id))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_BROKER_INFO:
            request = .adminBrokerInfo
        default:
            request = .unknown
        }
        return Call(
            callID: call.call_id, timeoutMicros: call.timeout_us, initialCredit: call.initial_credit,
            request: request)
    }

    /// `pointer`, which a set oneof case or required sub-message must have; else undecodable.
    @inline(__always)
    static func present<Message>(
        _ pointer: UnsafeMutablePointer<Message>?, in typeName: StaticString
    ) throws(BrokerError) -> UnsafePointer<Message> {
        guard let pointer else { throw undecodable(typeName) }
        return UnsafePointer(pointer)
    }
}
