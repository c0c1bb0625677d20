import BrokerModel

/// Reads the consent agent's typed answers: share allow/deny, read full/limited/deny, or cancel.
///
/// Matching ignores case and extra spaces. Share: `allow` (`a`, `yes`, `y`) or `deny` (`d`, `no`,
/// `n`). Read: `full` (`f`), `deny` (`d`, `no`, `n`), `limited YYYY-MM-DD` (also `from YYYY-MM-DD`
/// or a bare date: local midnight), or `last N days` (also `limited last N days`, `last N`), which
/// resolves once, now, to the date N days ago. `cancel` (`c`) cancels the prompt in either question.
enum AnswerParser {
    /// The most days `last N days` may say (about 270 years).
    static let maxDays: Int64 = 100_000
    /// Microseconds in one day.
    static let microsPerDay: Int64 = 86_400_000_000

    /// The choices a share question offers, as shown to the person.
    static let shareChoices = "allow / deny"
    /// The choices a read question offers, as shown to the person.
    static let readChoices = "full / limited YYYY-MM-DD / last N days / deny"

    /// The choices a read question about a characteristic offers (no dates: it is one value, not a series).
    static let characteristicChoices = "allow / deny"

    /// A read answer about a characteristic type: allow (`full` too) or deny; a limited read is refused.
    static func readCharacteristic(_ line: String, name: String) -> ParsedReply<ReadDecision> {
        switch words(line) {
        case []: return .empty
        case ["allow"], ["a"], ["yes"], ["y"], ["full"], ["f"]: return .decided(.full)
        case ["deny"], ["d"], ["no"], ["n"]: return .decided(.deny)
        case ["cancel"], ["c"]: return .cancel
        case let words where words.first == "limited" || words.first == "from" || words.first == "last" || words.first?.contains("-") == true:
            return .invalid("\(name) is a characteristic, one value rather than data over time: 'limited' does not apply; type \(characteristicChoices), or cancel")
        default: return .invalid("type \(characteristicChoices), or cancel")
        }
    }

    /// A share answer.
    static func share(_ line: String) -> ParsedReply<ShareDecision> {
        let words = self.words(line)
        switch words {
        case []: return .empty
        case ["allow"], ["a"], ["yes"], ["y"]: return .decided(.allow)
        case ["deny"], ["d"], ["no"], ["n"]: return .decided(.deny)
        case ["cancel"], ["c"]: return .cancel
        default: return .invalid("type \(shareChoices), or cancel")
        }
    }

    /// A read answer; `now` (µs since the epoch) anchors `last N days`.
    static func read(_ line: String, now: Int64) -> ParsedReply<ReadDecision> {
        var words = self.words(line)
        switch words {
        case []: return .empty
        case ["full"], ["f"]: return .decided(.full)
        case ["deny"], ["d"], ["no"], ["n"]: return .decided(.deny)
        case ["cancel"], ["c"]: return .cancel
        default: break
        }
        if words.first == "limited" { words.removeFirst() }
        if words.first == "from" { words.removeFirst() }
        switch words.count {
        case 0:
            return .invalid("limited from when? type 'limited YYYY-MM-DD' or 'last N days'")
        case 1 where words[0].contains("-"):
            return limited(fromDate: words[0], now: now)
        case 2...3 where words[0] == "last" && (words.count == 2 || ["days", "day"].contains(words[2])):
            return limited(lastDays: words[1], now: now)
        default:
            return .invalid("type \(readChoices), or cancel")
        }
    }

    /// `limited from DATE` (local midnight), refusing malformed dates, dates before 1970 and dates
    /// after `now` (the broker refuses those too: asked here, the person can type another at once).
    private static func limited(fromDate text: String, now: Int64) -> ParsedReply<ReadDecision> {
        guard let micros = LocalTime.midnight(ofDate: text) else {
            return .invalid("'\(text)' is not a date: type it as YYYY-MM-DD, e.g. 2026-01-31")
        }
        guard micros >= 0 else { return .invalid("the date must be 1970-01-01 or later") }
        guard micros <= now else { return .invalid("\(text) is in the future: give today or an earlier day") }
        return .decided(.limited(fromMicros: micros))
    }

    /// `limited from now − N days` (at least the epoch), for N from 1 to `maxDays`.
    private static func limited(lastDays text: String, now: Int64) -> ParsedReply<ReadDecision> {
        guard let days = Int64(text), (1...maxDays).contains(days) else {
            return .invalid("'last N days' needs a whole number of days from 1 to \(maxDays), not '\(text)'")
        }
        return .decided(.limited(fromMicros: max(0, now - days * microsPerDay)))
    }

    /// The line's words, lower-cased.
    private static func words(_ line: String) -> [String] {
        line.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }
}
