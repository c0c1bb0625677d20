import BrokerWire
import Foundation
@testable import HealthBrokerClient

/// Every reply frame one store gave X, step by step, in script order.
struct TwinTranscript: Sendable {
    /// One script step: its label and the frames that answered it.
    struct Entry: Sendable {
        /// What the step did, for failure messages.
        let label: String
        /// The reply frames as decoded.
        let frames: [ServerFrame]
    }

    /// The steps so far.
    private(set) var entries: [Entry] = []

    /// Adds a step.
    mutating func record(_ label: String, _ frames: [ServerFrame]) {
        entries.append(Entry(label: label, frames: frames))
    }

    /// Each step's frames normalised and re-encoded with the project's codec.
    ///
    /// Only what must differ between two daemons is rewritten: call ids, clock fields (sample
    /// created times, observe changed times, broker times) and anchors. An anchor becomes the index
    /// of its first appearance in this transcript, so "the same anchor as before" still compares.
    func normalisedBytes() -> [[UInt8]] {
        normalised().entries.map { entry in
            var bytes: [UInt8] = []
            for frame in entry.frames { WireCodec.append(frame, to: &bytes) }
            return bytes
        }
    }

    /// This transcript with every frame normalised (anchors read "anchor#N", N = first appearance).
    func normalised() -> TwinTranscript {
        var anchors: [[UInt8]: Int] = [:]
        var result = TwinTranscript()
        for entry in entries {
            result.record(entry.label, entry.frames.map { Self.normalised($0, anchors: &anchors) })
        }
        return result
    }

    /// `frame` with call id, clock fields and anchor replaced.
    static func normalised(_ frame: ServerFrame, anchors: inout [[UInt8]: Int]) -> ServerFrame {
        var frame = frame
        // Connection-level frames keep id 0: that they are connection-level is part of the answer.
        if frame.callID != 0 { frame.callID = 1 }
        switch frame.response {
        case .hello(var hello)?:
            hello.brokerTimeMicros = 0
            frame.response = .hello(hello)
        case .ping(var ping)?:
            ping.brokerTimeMicros = 0
            frame.response = .ping(ping)
        case .streamItem?:
            frame.response = normalised(frame.item, anchors: &anchors).map { .streamItem($0) } ?? frame.response
        default:
            break
        }
        return frame
    }

    /// A stream item with its clock fields and anchor replaced; nil when nothing changes.
    private static func normalised(_ item: StreamItem?, anchors: inout [[UInt8]: Int]) -> StreamItem? {
        switch item {
        case .samples(let samples)?:
            return .samples(samples.map(withoutClock))
        case .anchoredPage(var page)?:
            // Mutated in place rather than rebuilt, so fields added to the page later (such as
            // deleted source app ids) pass through and are compared too.
            page.added = page.added.map(withoutClock)
            if !page.newAnchor.isEmpty {
                let index = anchors[page.newAnchor] ?? anchors.count
                anchors[page.newAnchor] = index
                page.newAnchor = Array("anchor#\(index)".utf8)
            }
            return .anchoredPage(page)
        case .observed(let type, _)?:
            return .observed(type: type, changedMicros: 0)
        default:
            return nil
        }
    }

    private static func withoutClock(_ sample: Sample) -> Sample {
        var sample = sample
        sample.createdMicros = 0
        // A correlation's objects carry their own created times.
        if case .correlation(let objects) = sample.value { sample.value = .correlation(objects.map(withoutClock)) }
        return sample
    }

    /// The first step whose normalised replies differ, told readably; nil when both are identical.
    static func firstDifference(_ left: TwinTranscript, _ right: TwinTranscript, names: (String, String) = ("A", "B")) -> String? {
        let leftBytes = left.normalisedBytes()
        let rightBytes = right.normalisedBytes()
        // Told in normalised form, so an anchor shows as "anchor#N" and the difference is visible.
        let (left, right) = (left.normalised(), right.normalised())
        for index in 0..<max(leftBytes.count, rightBytes.count) {
            let leftEntry = index < left.entries.count ? left.entries[index] : nil
            let rightEntry = index < right.entries.count ? right.entries[index] : nil
            if leftEntry?.label == rightEntry?.label, leftBytes[index] == rightBytes[index] { continue }
            let later = differingLabels(leftBytes, rightBytes, left, after: index)
            return """
                step \(index) "\(leftEntry?.label ?? rightEntry?.label ?? "?")" differs:
                  \(names.0): \(describe(leftEntry))
                  \(names.1): \(describe(rightEntry))
                \(later.isEmpty ? "no later step differs" : "later steps that differ too (some may follow from this one): \(later.joined(separator: "; "))")
                """
        }
        return nil
    }

    /// Labels of the steps after `index` whose normalised replies differ.
    private static func differingLabels(_ leftBytes: [[UInt8]], _ rightBytes: [[UInt8]], _ left: TwinTranscript, after index: Int) -> [String] {
        let common = min(leftBytes.count, rightBytes.count)
        guard index + 1 < common else { return [] }
        return ((index + 1)..<common).filter { leftBytes[$0] != rightBytes[$0] }.map { "#\($0) \(left.entries[$0].label)" }
    }

    /// Every step, one line each (set TWINS_DUMP=1 to print both transcripts while writing scripts).
    func dump(_ name: String) -> String {
        entries.enumerated().map { "\(name) #\($0.offset) \($0.element.label): \(Self.describe($0.element))" }.joined(separator: "\n")
    }

    /// The frames of an entry, shortened so a failure message stays readable.
    static func describe(_ entry: Entry?) -> String {
        guard let entry else { return "(no such step)" }
        let text = entry.frames.map { frame -> String in
            var parts: [String] = []
            if let status = frame.status { parts.append("status \(status.code) \(status.domain) \"\(status.message)\"") }
            if let response = frame.response { parts.append(summary(response)) }
            return "[" + parts.joined(separator: "; ") + "]"
        }.joined(separator: " ")
        return text.count > 1_500 ? String(text.prefix(1_500)) + "…" : text
    }

    private static func summary(_ response: Proto.ServerFrame.Response) -> String {
        let item: StreamItem? = if case .streamItem(let proto) = response { try? StreamItem(proto: proto) } else { nil }
        switch item {
        case .samples(let samples)?:
            return "page of \(samples.count): " + samples.prefix(6).map(shortSample).joined(separator: ", ") + (samples.count > 6 ? ", …" : "")
        case .anchoredPage(let page)?:
            return "anchored page added \(page.added.count) [" + page.added.prefix(6).map(shortSample).joined(separator: ", ")
                + "] deleted \(page.deletedUUIDs) anchor \(hex(page.newAnchor)) done \(page.done)"
        default:
            return "\(response)"
        }
    }

    private static func shortSample(_ sample: Sample) -> String {
        "\(sample.uuid.prefix(8))…\(sample.uuid.suffix(4)) from \(sample.sourceAppID)"
    }

    /// Hex of (the start of) some bytes; a normalised anchor as its "anchor#N" text.
    static func hex(_ bytes: [UInt8]) -> String {
        if let text = String(bytes: bytes, encoding: .utf8), text.hasPrefix("anchor#") { return text }
        return bytes.prefix(16).map { String(format: "%02x", $0) }.joined() + (bytes.count > 16 ? "…(\(bytes.count) B)" : "")
    }
}
