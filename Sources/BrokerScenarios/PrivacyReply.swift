import BrokerWire
import HealthBrokerClient

/// What one call answered, written out so that two stores' answers can be compared as text: the
/// status, then every sample (uuid, type, span, value, source), bucket, deleted uuid or count.
/// Left out: what the broker stamps per store (a sample's created time, the broker's clock) and the
/// anchor, which is compared on its own (`anchorSequence`).
struct PrivacyReply: Sendable, Equatable {
    /// The normalised answer.
    var text = ""
    /// The change-sequence number in the new anchor of an anchored query (bytes 1…8, big-endian,
    /// readable by the app): if it differs between stores, it tells X how much others changed.
    var anchorSequence: Int64?
    /// The new anchor itself, to ask from later.
    var anchor: [UInt8] = []
    /// The status that ended the call ("OK" for a unary reply without one), with its domain code.
    var status = "OK"

    /// Adds one frame.
    mutating func add(_ frame: Proto.ServerFrame) {
        if let status = frame.status.map(Status.init(proto:)) {
            text += "status=\(status.code) domain=\(status.domain) message=\(status.message)\n"
            self.status = status.domain == .none ? "\(status.code)" : "\(status.code)/\(status.domain)"
        }
        // Stream items through the model, as an app reads them.
        let item = frame.response.flatMap { response -> StreamItem? in
            if case .streamItem(let item) = response { try? StreamItem(proto: item) } else { nil }
        }
        switch (frame.response, item) {
        case (_, .samples(let samples)?):
            for sample in samples { add(sample) }
        case (_, .anchoredPage(let page)?):
            for sample in page.added { add(sample) }
            for uuid in page.deletedUUIDs { text += "deleted \(uuid)\n" }
            if page.done { anchor = page.newAnchor }
            // Only the plain format (version byte 1) is read; an anchor made opaque has nothing to compare.
            if page.done, page.newAnchor.count >= 9, page.newAnchor[0] == 1 {
                anchorSequence = page.newAnchor[1...8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            }
        case (.statistics(let proto)?, _):
            let result = StatisticsResult(proto: proto)
            text += "unit \(result.unit)\n"
            for bucket in result.buckets {
                text += "bucket \(bucket.startMicros) \(bucket.endMicros) n=\(bucket.sampleCount) sum=\(String(describing: bucket.sum))"
                    + " avg=\(String(describing: bucket.average)) min=\(String(describing: bucket.minimum)) max=\(String(describing: bucket.maximum))\n"
            }
        case (.delete(let deleted)?, _):
            text += "count deleted=\(deleted.deleted)\n"
        case (.hello?, _):
            text += "hello ok\n"
        case (let other?, _):
            text += "\(other)\n"
        case (nil, _):
            break
        }
    }

    /// Adds one sample without its created time.
    private mutating func add(_ sample: Sample) {
        text += "sample \(sample.uuid) \(sample.type.identifier) \(sample.startMicros) \(sample.endMicros) \(sample.value) \(sample.sourceAppID)\n"
    }

    /// Samples, deleted uuids and buckets listed (not the status, the unit or a delete's count).
    var items: Int {
        text.split(separator: "\n").filter { !$0.hasPrefix("status=") && !$0.hasPrefix("unit ") && !$0.hasPrefix("count ") }.count
    }
}
