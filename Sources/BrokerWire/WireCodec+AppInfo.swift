import BrokerModel
import HealthBrokerProto

// AppInfo in both directions; also lists of them (AdminListApps) and AppRegistration (AdminAddApp).
extension WireCodec {
    /// Runs `body` with C forms of `apps` and an array of pointers to them, valid only inside `body`.
    ///
    /// All the strings go into one scoped scratch buffer, and the structs and the pointer array into
    /// two more: no per-field allocation, and nothing on the heap for a short list.
    static func withCAppInfos<R>(
        _ apps: some Collection<AppInfo>,
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<Healthbroker__V1__AppInfo>?>, Int) -> R
    ) -> R {
        let count = apps.count
        var textBytes = 0
        for app in apps {
            textBytes += CStringWriter.byteCount(of: app.appID) + CStringWriter.byteCount(of: app.name)
                + CStringWriter.byteCount(of: app.readUsage) + CStringWriter.byteCount(of: app.shareUsage)
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(textBytes, 1)) { text in
            withUnsafeTemporaryAllocation(of: Healthbroker__V1__AppInfo.self, capacity: max(count, 1)) { infos in
                withUnsafeTemporaryAllocation(
                    of: UnsafeMutablePointer<Healthbroker__V1__AppInfo>?.self, capacity: max(count, 1)
                ) { pointers in
                    let info = infos.baseAddress.unsafelyUnwrapped
                    var writer = CStringWriter(text)
                    var index = 0
                    for app in apps {
                        let element = info + index
                        element.initialize(to: Healthbroker__V1__AppInfo())
                        healthbroker__v1__app_info__init(element)
                        element.pointee.app_id = writer.write(app.appID)
                        element.pointee.name = writer.write(app.name)
                        element.pointee.read_usage = writer.write(app.readUsage)
                        element.pointee.share_usage = writer.write(app.shareUsage)
                        element.pointee.has_pinned_uid = app.pinnedUID == nil ? 0 : 1
                        element.pointee.pinned_uid = app.pinnedUID ?? 0
                        element.pointee.created_us = app.createdMicros
                        element.pointee.token_rotated_us = app.tokenRotatedMicros
                        pointers[index] = element
                        index += 1
                    }
                    defer { info.deinitialize(count: index) }
                    return body(pointers.baseAddress.unsafelyUnwrapped, index)
                }
            }
        }
    }

    /// The Swift form of an unpacked AppInfo.
    static func appInfo(_ message: UnsafePointer<Healthbroker__V1__AppInfo>) -> AppInfo {
        AppInfo(
            appID: string(message.pointee.app_id),
            name: string(message.pointee.name),
            readUsage: string(message.pointee.read_usage),
            shareUsage: string(message.pointee.share_usage),
            pinnedUID: message.pointee.has_pinned_uid != 0 ? message.pointee.pinned_uid : nil,
            createdMicros: message.pointee.created_us,
            tokenRotatedMicros: message.pointee.token_rotated_us)
    }

    /// The Swift forms of an unpacked repeated AppInfo field; throws on a NULL element.
    static func appInfos(
        _ apps: UnsafeMutablePointer<UnsafeMutablePointer<Healthbroker__V1__AppInfo>?>?, count: Int
    ) throws(BrokerError) -> [AppInfo] {
        guard count > 0 else { return [] }
        guard let apps else { throw undecodable("ServerFrame") }
        var result: [AppInfo] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let app = apps[index] else { throw undecodable("ServerFrame") }
            result.append(appInfo(app))
        }
        return result
    }

    /// Runs `body` with the C form of an AdminAddApp request, valid only inside `body`.
    static func withCAdminAddAppRequest<R>(
        _ registration: AppRegistration, _ body: (UnsafeMutablePointer<Healthbroker__V1__AdminAddAppRequest>) -> R
    ) -> R {
        var message = Healthbroker__V1__AdminAddAppRequest()
        healthbroker__v1__admin_add_app_request__init(&message)
        message.has_pinned_uid = registration.pinnedUID == nil ? 0 : 1
        message.pinned_uid = registration.pinnedUID ?? 0
        return registration.appID.withCString { appID in
            registration.name.withCString { name in
                registration.readUsage.withCString { readUsage in
                    registration.shareUsage.withCString { shareUsage in
                        message.app_id = field(appID)
                        message.name = field(name)
                        message.read_usage = field(readUsage)
                        message.share_usage = field(shareUsage)
                        return withUnsafeMutablePointer(to: &message, body)
                    }
                }
            }
        }
    }

    /// The Swift form of an unpacked AdminAddApp request.
    static func appRegistration(_ message: UnsafePointer<Healthbroker__V1__AdminAddAppRequest>) -> AppRegistration {
        AppRegistration(
            appID: string(message.pointee.app_id),
            name: string(message.pointee.name),
            readUsage: string(message.pointee.read_usage),
            shareUsage: string(message.pointee.share_usage),
            pinnedUID: message.pointee.has_pinned_uid != 0 ? message.pointee.pinned_uid : nil)
    }
}
