import BrokerModel
import BrokerStore
import BrokerSupport
import BrokerCrypto
import BrokerTransport
import BrokerWire

extension Broker {
    /// Opens an app session: the app must be registered, its token must match, and a pinned uid must agree.
    func handleHello(_ hello: Proto.HelloRequest, callID: UInt64, session: Session) {
        let connection = session.connection
        func refuse(_ reason: String, _ message: String) {
            logger.warning("hello refused", ["session": session.label, "app_id": hello.appID, "reason": reason])
            connection.closeAfterSending(ServerFrame(callID: callID, status: Status(.unauthenticated(message))))
        }
        guard hello.protocolVersion == BrokerVersion.protocolVersion else {
            refuse("protocol version \(hello.protocolVersion)", "protocol version \(hello.protocolVersion) is not supported; this broker speaks \(BrokerVersion.protocolVersion)")
            return
        }
        // One message and the same work (hash and constant-time compare) for both cases: a caller
        // can probe which app ids exist neither by the reply nor by its timing.
        let stored = apps[hello.appID]
        guard AppToken.verify(hello.appToken, storedHash: stored?.tokenHash), let app = stored else {
            refuse(stored == nil ? "unknown app" : "wrong token", "unknown app or wrong token")
            return
        }
        if let pinned = app.info.pinnedUID, connection.peer?.uid != pinned {
            refuse("uid \(connection.peer.map { String($0.uid) } ?? "unknown") is not the pinned uid", "app \(hello.appID) may not connect as this user")
            return
        }
        session.appID = hello.appID
        callsServed += 1
        logger.info("session opened", ["session": session.label, "app_id": hello.appID])
        let answer = HelloResponse(
            brokerVersion: BrokerVersion.broker,
            protocolVersion: BrokerVersion.protocolVersion,
            maxFrameBytes: UInt32(configuration.maxFrameBytes),
            brokerTimeMicros: Microseconds.now(),
            maxCallsInFlight: UInt32(configuration.maxCallsInFlight)
        ).proto
        connection.send { Proto.ServerFrame.appendFrame(callID: callID, status: nil, hello: answer, to: &$0) }
    }
}
