import BrokerModel

/// A table that gives each name (a type identifier, an app id) a small integer code, cached in memory.
///
/// Sample rows and their indexes keep the code instead of the text. Codes are assigned once and
/// never reused or deleted. A new code is written only outside transactions (`assign(_:)`), in
/// its own autocommit statement, so a rolled-back transaction can never leave the cache holding a
/// code that is not in the file.
final class NameCodeTable {
    private let database: Database
    private let insert: Statement
    private let selectCode: Statement
    private let selectName: Statement
    private var codes: [String: Int64] = [:]
    private var names: [Int64: String] = [:]
    /// The last code `name(of:)` answered, and its name: rows of a page mostly share their app.
    private var last: (code: Int64, name: String)?

    /// Prepares the statements for `table` (columns `code` and `column`) on `database`.
    init(database: Database, table: String, column: String) throws(BrokerError) {
        self.database = database
        insert = try database.prepare("INSERT INTO \(table) (\(column)) VALUES (?1) ON CONFLICT DO NOTHING")
        selectCode = try database.prepare("SELECT code FROM \(table) WHERE \(column) = ?1")
        selectName = try database.prepare("SELECT \(column) FROM \(table) WHERE code = ?1")
    }

    /// The code of `name`, or nil when it has none (nothing was ever stored under it).
    func code(of name: String) throws(BrokerError) -> Int64? {
        if let code = codes[name] { return code }
        let found = try selectCode.run { statement throws(BrokerError) -> Int64? in
            try statement.bind(name, at: 1)
            return try statement.step() ? statement.int64(at: 0) : nil
        }
        if let found { remember(name, found) }
        return found
    }

    /// The code of `name`, assigning one when it has none; must be called outside a transaction.
    func assign(_ name: String) throws(BrokerError) -> Int64 {
        if let code = try code(of: name) { return code }
        guard !database.isInTransaction else {
            throw .internal("a name code must be assigned outside a transaction")
        }
        try insert.run { statement throws(BrokerError) in
            try statement.bind(name, at: 1)
            try statement.execute()
        }
        guard let code = try code(of: name) else { throw .internal("no code was stored for \"\(name)\"") }
        return code
    }

    /// Gives every one of `names` a code, the missing ones in one transaction (one commit, not one
    /// per name: a new catalogue adds many types at once); must be called outside a transaction.
    /// The cache learns the new codes only after the commit.
    func assignAll(_ names: [String]) throws(BrokerError) {
        var missing: [String] = []
        for name in names where try code(of: name) == nil { missing.append(name) }
        guard !missing.isEmpty else { return }
        try database.transaction { () throws(BrokerError) in
            for name in missing {
                try insert.run { statement throws(BrokerError) in
                    try statement.bind(name, at: 1)
                    try statement.execute()
                }
            }
        }
        for name in missing where try code(of: name) == nil {
            throw .internal("no code was stored for \"\(name)\"")
        }
    }

    /// The name with `code`; `INTERNAL` when the file has no such code.
    func name(of code: Int64) throws(BrokerError) -> String {
        if let last, last.code == code { return last.name }
        if let name = names[code] {
            last = (code, name)
            return name
        }
        let found = try selectName.run { statement throws(BrokerError) -> String? in
            try statement.bind(code, at: 1)
            return try statement.step() ? statement.string(at: 0) : nil
        }
        guard let found else { throw .internal("no name is stored for code \(code)") }
        remember(found, code)
        return found
    }

    /// Caches `name` ↔ `code`.
    private func remember(_ name: String, _ code: Int64) {
        codes[name] = code
        names[code] = name
    }
}
