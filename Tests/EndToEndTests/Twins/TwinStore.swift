import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport

/// One daemon of a twin pair, driven as app X over the raw socket, recording every reply.
///
/// The script calls the same methods on both stores; only `others` differs: it acts in a store
/// that has other apps and does nothing in one that holds X's samples alone.
final class TwinStore: @unchecked Sendable {
    /// How the store is set up.
    enum Kind: Sendable {
        /// Store A: X read-denied; other apps hold thousands of samples.
        case denied
        /// Store B: X has full read access; only X's samples.
        case alone
        /// A variant of A where X may read everything (the suite must then see a difference).
        case fullWithOthers
    }

    /// "A" or "B", for messages.
    let name: String
    let kind: Kind
    let daemon: DaemonProcess
    /// What X saw, step by step.
    private(set) var transcript = TwinTranscript()
    /// The real anchors X received, by the name the script gave them.
    private(set) var anchors: [String: [UInt8]] = [:]
    private var xToken = ""
    private var otherTokens: [String] = []
    private var otherStores: [HealthStore] = []
    private var socket: TwinSocket?
    private var nextCallID: UInt64 = 1
    private var observeCallID: UInt64?

    /// Starts the daemon, registers X and, unless `.alone`, the other apps with `otherCount` samples each.
    init(_ name: String, _ kind: Kind, otherCount: Int) async throws {
        self.name = name
        self.kind = kind
        daemon = try await DaemonProcess(policy: kind == .denied ? TwinFixtures.deniedPolicy : allowAll)
        xToken = try await daemon.registerApp(TwinFixtures.x).token
        guard kind != .alone else { return }
        for app in TwinFixtures.others {
            otherTokens.append(try await daemon.registerApp(app).token)
        }
        try await connectOthers()
        try await seed(otherCount: otherCount)
    }

    deinit { for store in otherStores { store.close() } }

    /// Whether the other apps exist here (store A).
    var hasOthers: Bool { kind != .alone }

    private func connectOthers() async throws {
        for store in otherStores { store.close() }
        otherStores = []
        for (app, token) in zip(TwinFixtures.others, otherTokens) {
            let store = try await HealthStore.connect(socketPath: daemon.appSocket, appID: app, appToken: token)
            try await store.requestAuthorization(toShare: Set(TwinFixtures.types), read: Set(TwinFixtures.types), timeout: .seconds(10))
            otherStores.append(store)
        }
    }

    /// The other apps' samples, the long one and the one whose uuid X reuses; every 10th deleted again.
    private func seed(otherCount: Int) async throws {
        for (app, store) in otherStores.enumerated() {
            let samples = TwinFixtures.otherSamples(app: app, count: otherCount)
            for start in stride(from: 0, to: samples.count, by: 1_000) {
                _ = try await store.save(Array(samples[start..<min(start + 1_000, samples.count)]))
            }
            _ = try await store.delete(samples.enumerated().filter { $0.offset % 10 == 0 }.map(\.element.uuid))
        }
        _ = try await otherStores[0].save([TwinFixtures.otherLong, TwinFixtures.otherHeld])
    }

    /// Runs `action` with the other apps' sessions; does nothing in a store without them.
    func others(_ action: ([HealthStore]) async throws -> Void) async throws {
        guard hasOthers else { return }
        try await action(otherStores)
    }

    /// Opens X's raw connection and says Hello (recorded).
    func hello() async throws {
        socket = try TwinSocket(path: daemon.appSocket)
        try await call("Hello", .hello(HelloRequest(appID: TwinFixtures.x, appToken: xToken, protocolVersion: 1)))
    }

    /// Makes one call as X and records every reply frame under `label`.
    @discardableResult
    func call(_ label: String, _ request: Proto.Call.Request, credit: UInt32 = 0, grant: UInt32 = 1) async throws -> [ServerFrame] {
        guard let socket else { throw DaemonError("\(name): no connection (call hello first)") }
        let callID = nextCallID
        nextCallID += 1
        let frames = try await socket.call(callID, request, credit: credit, grant: grant)
        transcript.record(label, frames)
        return frames
    }

    /// An anchored query from the anchor named `from` (none: first call); the new anchor is kept as `keep`.
    @discardableResult
    func anchored(_ label: String, _ query: AnchoredQuery, from: String? = nil, keep: String? = nil) async throws -> [ServerFrame] {
        var query = query
        if let from {
            guard let anchor = anchors[from] else { throw DaemonError("\(name): no anchor named \(from)") }
            query.anchor = anchor
        }
        let frames = try await call(label, .anchoredQuery(query))
        if let keep {
            for case .anchoredPage(let page)? in frames.map(\.item) where page.done {
                anchors[keep] = page.newAnchor
            }
        }
        return frames
    }

    /// The anchor kept under `name`.
    func anchor(_ name: String) -> [UInt8] { anchors[name] ?? [] }

    /// Starts X's Observe stream (its frames are read by `observed`).
    func startObserve(_ types: [ObjectType]) async throws {
        guard let socket else { throw DaemonError("\(name): no connection") }
        let callID = nextCallID
        nextCallID += 1
        try socket.start(callID, .observe(types), credit: 1_000)
        observeCallID = callID
        // Let the call reach the broker before anything changes.
        _ = try await call("Ping after Observe", .ping(PingRequest(payload: [1])))
    }

    /// Records the Observe frames that arrived: at least one when `expectEvent`, else whatever came
    /// within half a second (the stream must then be silent).
    func observed(_ label: String, expectEvent: Bool) async throws {
        guard let socket, let observeCallID else { throw DaemonError("\(name): no Observe stream") }
        let frames = try await socket.take(observeCallID, atLeast: expectEvent ? 1 : 0, settle: expectEvent ? 0.3 : 0.5)
        transcript.record(label, frames)
    }

    /// Stops and restarts the daemon with `arguments`, reconnecting the other apps and X (Hello recorded).
    func restart(_ arguments: [String]) async throws {
        socket = nil
        observeCallID = nil
        for store in otherStores { store.close() }
        otherStores = []
        try await daemon.stop()
        try await daemon.start(arguments: arguments)
        if hasOthers { try await connectOthers() }
        try await hello()
    }
}
