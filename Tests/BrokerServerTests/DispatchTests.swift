@testable import BrokerServer
import BrokerModel
import BrokerWire
import Testing

/// The generated dispatch (`CallHandler.dispatch`): every method of the generated method table, a
/// new one included, reaches its own handler on its socket.
@Suite("Generated dispatch, in process")
struct DispatchTests {
    /// Each method's empty request (`ProtoMethod.defaultRequest`), sent on its socket: it ends with
    /// its own response case, or with a status its handler gave (an empty request is often invalid),
    /// never with what a call that reached no handler gets (UNIMPLEMENTED, INTERNAL, PERMISSION_DENIED).
    @Test func everyMethodReachesItsHandler() throws {
        let harness = try InProcessBroker()
        defer { harness.shutDown() }
        let app = try harness.helloedApp("com.example.dispatch")
        let admin = harness.connect(.admin)
        var callID: UInt64 = 10
        for method in ProtoMethod.allCases where method != .hello {
            callID += 1
            let connection = method.socket == .admin ? admin : app
            // A stream that waits for events (Observe, AdminWatchPrompts) is ended by its deadline.
            let frames = try harness.call(method.defaultRequest, id: callID, on: connection, timeoutMicros: 300_000)
            let last = try #require(frames.last, "\(method.name): no answer")
            if let status = last.status, status.code != .ok {
                #expect(![.unimplemented, .internal, .permissionDenied, .unauthenticated].contains(status.code), "\(method.name): \(status)")
            } else if method.isServerStreaming {
                #expect(last.status?.code == .ok, "\(method.name)")
                for item in frames.dropLast() {
                    #expect(Self.caseName(item.response) == "streamItem", "\(method.name)")
                }
            } else {
                #expect(Self.caseName(last.response) == Self.caseName(method.defaultResponse), "\(method.name): \(String(describing: last.response))")
            }
            #expect(!connection.isClosed, "\(method.name) closed the connection")
        }
    }

    private static func caseName(_ response: Proto.ServerFrame.Response?) -> String {
        guard let response else { return "none" }
        return Mirror(reflecting: response).children.first?.label ?? String(describing: response)
    }
}
