import BrokerCore
import HealthBrokerProto

// ServerFrame's `response` oneof, and StreamItem, in both directions.
extension WireCodec {
    /// Sets `frame`'s response case to the C form of `response` and runs `body` while that is valid.
    static func withCResponse<R>(
        _ response: Response?, in frame: UnsafeMutablePointer<Healthbroker__V1__ServerFrame>, _ body: () -> R
    ) -> R {
        guard let response else { return body() }
        switch response {
        case .streamItem(.ping(let ping)):
            return withCPingResponse(ping) { ping in
                var item = Healthbroker__V1__StreamItem()
                healthbroker__v1__stream_item__init(&item)
                item.item_case = HEALTHBROKER__V1__STREAM_ITEM__ITEM_PING
                item.ping = ping
                return withUnsafeMutablePointer(to: &item) { item in
                    frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_STREAM_ITEM
                    frame.pointee.stream_item = item
                    return body()
                }
            }
        case .hello(let hello):
            return withCHelloResponse(hello) { hello in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_HELLO
                frame.pointee.hello = hello
                return body()
            }
        case .ping(let ping):
            return withCPingResponse(ping) { ping in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_PING
                frame.pointee.ping = ping
                return body()
            }
        case .adminAddApp(let credentials):
            return withCAdminAddAppResponse(credentials) { addApp in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ADD_APP
                frame.pointee.admin_add_app = addApp
                return body()
            }
        case .adminListApps(let apps):
            return withCAppInfos(apps) { apps, count in
                var listApps = Healthbroker__V1__AdminListAppsResponse()
                healthbroker__v1__admin_list_apps_response__init(&listApps)
                listApps.n_apps = count
                listApps.apps = apps
                return withUnsafeMutablePointer(to: &listApps) { listApps in
                    frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_LIST_APPS
                    frame.pointee.admin_list_apps = listApps
                    return body()
                }
            }
        case .adminRemoveApp(let connectionsClosed):
            var removeApp = Healthbroker__V1__AdminRemoveAppResponse()
            healthbroker__v1__admin_remove_app_response__init(&removeApp)
            removeApp.connections_closed = connectionsClosed
            return withUnsafeMutablePointer(to: &removeApp) { removeApp in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_REMOVE_APP
                frame.pointee.admin_remove_app = removeApp
                return body()
            }
        case .adminRotateToken(let credentials):
            return withCAdminRotateTokenResponse(credentials) { rotateToken in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ROTATE_TOKEN
                frame.pointee.admin_rotate_token = rotateToken
                return body()
            }
        case .adminBrokerInfo(let info):
            return withCAdminBrokerInfoResponse(info) { brokerInfo in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_BROKER_INFO
                frame.pointee.admin_broker_info = brokerInfo
                return body()
            }
        }
    }

    /// The Swift form of an unpacked ServerFrame's response; nil when no case this build knows is set.
    ///
    /// A stream item with no known item case is undecodable: the client asked for the stream, so it
    /// must understand its items.
    static func response(_ frame: UnsafePointer<Healthbroker__V1__ServerFrame>) throws(BrokerError) -> Response? {
        let message = frame.pointee
        switch message.response_case {
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_STREAM_ITEM:
            let item = try present(message.stream_item, in: "ServerFrame")
            switch item.pointee.item_case {
            case HEALTHBROKER__V1__STREAM_ITEM__ITEM_PING:
                return .streamItem(.ping(pingResponse(try present(item.pointee.ping, in: "ServerFrame"))))
            default:
                throw undecodable("ServerFrame")
            }
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_HELLO:
            return .hello(helloResponse(try present(message.hello, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_PING:
            return .ping(pingResponse(try present(message.ping, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ADD_APP:
            return .adminAddApp(try adminAddAppResponse(try present(message.admin_add_app, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_LIST_APPS:
            let listApps = try present(message.admin_list_apps, in: "ServerFrame")
            return .adminListApps(try appInfos(listApps.pointee.apps, count: listApps.pointee.n_apps))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_REMOVE_APP:
            let removeApp = try present(message.admin_remove_app, in: "ServerFrame")
            return .adminRemoveApp(connectionsClosed: removeApp.pointee.connections_closed)
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ROTATE_TOKEN:
            return .adminRotateToken(
                try adminRotateTokenResponse(try present(message.admin_rotate_token, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_BROKER_INFO:
            return .adminBrokerInfo(brokerInfo(try present(message.admin_broker_info, in: "ServerFrame")))
        default:
            return nil
        }
    }
}
