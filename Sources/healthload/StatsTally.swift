/// Everything a worker counts: per-operation tallies of measured calls, plus whole-run counters.
struct StatsTally: Sendable, Equatable {
    /// Measured calls, one tally per `LoadOperation.index`.
    var operations = Array(repeating: OperationTally(), count: LoadOperation.allCases.count)
    /// Calls that ended in any phase (warm-up included): the progress line's rate.
    var endedAnyPhase: UInt64 = 0
    /// Calls that ended with an error in any phase.
    var failedAnyPhase: UInt64 = 0
    /// Open loop: measured calls that were due but never sent (the backlog at the end).
    var unsent: UInt64 = 0
    /// Replies for no call in flight (ignored).
    var strayReplies: UInt64 = 0

    /// All operations together.
    var total: OperationTally {
        var sum = OperationTally()
        for tally in operations { sum.merge(tally) }
        return sum
    }

    /// Adds `other`'s counts.
    mutating func merge(_ other: StatsTally) {
        for index in operations.indices { operations[index].merge(other.operations[index]) }
        endedAnyPhase += other.endedAnyPhase
        failedAnyPhase += other.failedAnyPhase
        unsent += other.unsent
        strayReplies += other.strayReplies
    }
}
