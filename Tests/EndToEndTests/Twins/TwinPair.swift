import Foundation
@testable import HealthBrokerClient
import Testing

/// Store A and store B, run through the same script as app X and compared reply by reply.
struct TwinPair: Sendable {
    let a: TwinStore
    let b: TwinStore

    /// Starts both daemons side by side. `aKind` is `.denied` for the real comparison and
    /// `.fullWithOthers` for the check that the comparison can fail.
    static func make(aKind: TwinStore.Kind = .denied, otherCount: Int) async throws -> TwinPair {
        async let a = TwinStore("A", aKind, otherCount: otherCount)
        async let b = TwinStore("B", .alone, otherCount: 0)
        return TwinPair(a: try await a, b: try await b)
    }

    /// Runs `script` on A, then on B.
    func run(_ script: (TwinStore) async throws -> Void) async throws {
        try await script(a)
        try await script(b)
        if ProcessInfo.processInfo.environment["TWINS_DUMP"] != nil {
            print(a.transcript.dump(a.name) + "\n" + b.transcript.dump(b.name))
        }
    }

    /// The first step whose normalised replies differ, readably; nil when X cannot tell A from B.
    var firstDifference: String? { TwinTranscript.firstDifference(a.transcript, b.transcript) }

    /// Records an issue naming the first differing step, if any.
    func expectIndistinguishable(sourceLocation: SourceLocation = #_sourceLocation) {
        if let difference = firstDifference {
            Issue.record("X can tell store A (read denied, other apps' data) from store B (its own data only):\n\(difference)", sourceLocation: sourceLocation)
        }
    }
}
