/// A weighted mix of operations, written `ping:8,easd:1,save:1` (a missing weight is 1).
struct OperationMix: Sendable, Equatable, CustomStringConvertible {
    /// One operation and its weight.
    struct Entry: Sendable, Equatable {
        /// The operation.
        var operation: LoadOperation
        /// Its relative weight (≥ 1).
        var weight: Int
    }

    /// The largest total weight accepted (one cycle holds that many calls).
    static let maxTotalWeight = 100_000

    /// The entries in the order given.
    let entries: [Entry]

    /// A mix of exactly these entries.
    init(_ entries: [Entry]) {
        self.entries = entries
    }

    /// Parses `name[:weight],…`; names are the `LoadOperation` raw values.
    init(parsing text: String) throws(OperationMixError) {
        var entries: [Entry] = []
        for rawPart in text.split(separator: ",", omittingEmptySubsequences: false) {
            let part = rawPart.trimmingSpaces()
            guard !part.isEmpty else { throw OperationMixError("empty operation in '\(text)'") }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { throw OperationMixError("'\(part)' is not NAME or NAME:WEIGHT") }
            let name = pieces[0].trimmingSpaces().lowercased()
            guard let operation = LoadOperation(rawValue: name) else {
                let known = LoadOperation.allCases.map(\.rawValue).joined(separator: ", ")
                throw OperationMixError("unknown operation '\(name)' (expected one of \(known))")
            }
            var weight = 1
            if pieces.count == 2 {
                guard let parsed = Int(pieces[1].trimmingSpaces()), parsed >= 1, parsed <= Self.maxTotalWeight else {
                    throw OperationMixError("weight of '\(name)' must be a whole number from 1 to \(Self.maxTotalWeight)")
                }
                weight = parsed
            }
            guard !entries.contains(where: { $0.operation == operation }) else {
                throw OperationMixError("operation '\(name)' appears twice")
            }
            entries.append(Entry(operation: operation, weight: weight))
        }
        guard entries.reduce(0, { $0 + $1.weight }) <= Self.maxTotalWeight else {
            throw OperationMixError("the weights add up to more than \(Self.maxTotalWeight)")
        }
        self.entries = entries
    }

    /// The operations in the mix, in the order given.
    var operations: [LoadOperation] { entries.map(\.operation) }

    /// The sum of the weights.
    var totalWeight: Int { entries.reduce(0) { $0 + $1.weight } }

    /// Whether `operation` is in the mix.
    func contains(_ operation: LoadOperation) -> Bool { entries.contains { $0.operation == operation } }

    /// The share of calls `operation` gets (0…1).
    func share(of operation: LoadOperation) -> Double {
        let weight = entries.first { $0.operation == operation }?.weight ?? 0
        return Double(weight) / Double(max(totalWeight, 1))
    }

    /// One cycle of `totalWeight` operations in which each appears `weight` times, spread evenly
    /// (smooth weighted round-robin: `ping:2,save:1` gives ping, save, ping).
    func cycle() -> [LoadOperation] {
        let total = totalWeight
        var credit = Array(repeating: 0, count: entries.count)
        var result: [LoadOperation] = []
        result.reserveCapacity(total)
        for _ in 0..<total {
            var best = 0
            for index in entries.indices {
                credit[index] += entries[index].weight
                if credit[index] > credit[best] { best = index }
            }
            credit[best] -= total
            result.append(entries[best].operation)
        }
        return result
    }

    /// `ping:8,easd:1`.
    var description: String {
        entries.map { "\($0.operation.rawValue):\($0.weight)" }.joined(separator: ",")
    }
}
