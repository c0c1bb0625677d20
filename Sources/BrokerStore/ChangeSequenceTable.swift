import BrokerModel

/// The `change_sequence` table: the one counter that numbers samples and tombstones, and the
/// highest sequence number whose tombstone has been pruned.
final class ChangeSequenceTable {
    private let select: Statement
    private let updateLast: Statement
    private let updatePruned: Statement

    /// Prepares the table's statements on `database`.
    init(database: Database) throws(BrokerError) {
        select = try database.prepare("SELECT last_seq, pruned_through_seq FROM change_sequence WHERE id = 1")
        updateLast = try database.prepare("UPDATE change_sequence SET last_seq = ?1 WHERE id = 1")
        updatePruned = try database.prepare(
            "UPDATE change_sequence SET pruned_through_seq = max(pruned_through_seq, ?1) WHERE id = 1")
    }

    /// The last sequence number handed out and the highest pruned one.
    func current() throws(BrokerError) -> (last: Int64, prunedThrough: Int64) {
        try select.run { statement throws(BrokerError) in
            guard try statement.step() else { throw .internal("the change_sequence row is missing") }
            return (statement.int64(at: 0), statement.int64(at: 1))
        }
    }

    /// Records `last` as the last sequence number handed out (inside the caller's transaction).
    func setLast(_ last: Int64) throws(BrokerError) {
        try updateLast.run { statement throws(BrokerError) in
            try statement.bind(last, at: 1)
            try statement.execute()
        }
    }

    /// Raises the pruned-through mark to `sequence` (never lowers it).
    func notePruned(through sequence: Int64) throws(BrokerError) {
        try updatePruned.run { statement throws(BrokerError) in
            try statement.bind(sequence, at: 1)
            try statement.execute()
        }
    }
}
