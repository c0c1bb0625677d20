import BrokerModel
import BrokerSupport

/// What the consent agents print about prompts: the introduction of a prompt and how prompts end.
enum PromptText {
    /// The lines introducing a prompt: who asks, why, the undecided types, and how long the app waits.
    static func introduction(_ prompt: Prompt, now: Int64 = Microseconds.now()) -> [String] {
        var lines = ["prompt \(prompt.id): \(TableFormatter.singleLine(prompt.appName)) (\(prompt.appID)) asks for access"]
        var details: [[String]] = []
        if !prompt.readTypes.isEmpty { details.append(["  why it reads:", orDash(prompt.readUsage)]) }
        if !prompt.shareTypes.isEmpty { details.append(["  why it shares:", orDash(prompt.shareUsage)]) }
        if !prompt.shareTypes.isEmpty { details.append(["  to share (write):", names(prompt.shareTypes)]) }
        if !prompt.readTypes.isEmpty { details.append(["  to read:", names(prompt.readTypes)]) }
        details.append(["  raised:", "\(LocalTime.string(micros: prompt.createdMicros)) (\(age(now - prompt.createdMicros)) ago; the app is waiting)"])
        details.append(["  answer by:", deadline(prompt, now: now)])
        lines.append(TableFormatter.render(rows: details))
        return lines
    }

    /// How long the app waits for the answer, in local time: `14:32 CET (4 min left)` (with the day
    /// when it is not today), or that it set no time limit.
    static func deadline(_ prompt: Prompt, now: Int64 = Microseconds.now()) -> String {
        guard prompt.deadlineMicros > 0 else { return "no time limit (the app waits until you answer)" }
        let left = prompt.deadlineMicros - now
        let when = LocalTime.sameDay(prompt.deadlineMicros, now) ? LocalTime.clockString(micros: prompt.deadlineMicros) : LocalTime.string(micros: prompt.deadlineMicros)
        return left > 0 ? "\(when) (\(age(left)) left)" : "\(when) (the time is up)"
    }

    /// The question for one part of one type, ending in `: ` for the answer.
    static func question(_ question: ConsentQuestion) -> String {
        switch question {
        case .share(let type): "  share \(PlainTypeName.labelled(type))? \(AnswerParser.shareChoices) (? explains): "
        case .read(let type) where !PlainTypeName.isSample(type):
            "  read \(PlainTypeName.labelled(type))? \(AnswerParser.characteristicChoices) (? explains): "
        case .read(let type): "  read \(PlainTypeName.labelled(type))? \(AnswerParser.readChoices) (? explains): "
        }
    }

    /// How a prompt ended elsewhere (another agent, the app, the person at another terminal).
    static func resolved(_ promptID: UInt64, _ resolution: PromptResolution) -> String {
        switch resolution {
        case .answered: "prompt \(promptID) answered elsewhere (by another agent or the daemon's policy)"
        case .cancelled: "prompt \(promptID) cancelled elsewhere (the app was told the person cancelled)"
        case .withdrawn: "prompt \(promptID) withdrawn (the app stopped waiting)"
        }
    }

    /// The line for an answer or cancel that came too late.
    static func alreadyResolved(_ promptID: UInt64) -> String {
        "prompt \(promptID): this prompt was already answered or withdrawn"
    }

    /// What `?` prints: the choices and what a limited read means.
    static func help() -> [String] {
        [
            "  to share (write): allow lets the app save this type of data; deny does not",
            "  to read:",
            "    full               the app reads all of this data, old and new",
            "    limited YYYY-MM-DD the app reads data from that day on (midnight in your time zone, \(LocalTime.zoneName))",
            "                       and cannot tell that older data exists; 'last N days' picks the day for you",
            "    deny               the app reads none of it, and cannot tell whether any exists",
            "  characteristics (date of birth, biological sex, blood type) are one value: allow or deny only",
            "  allow all / deny all answers every remaining question of this request at once",
            "  cancel               cancels the whole request; the app is told you cancelled",
        ]
    }

    /// `3 s`, `4 min`, `2 h`, `5 days`: a rough length of time.
    static func age(_ micros: Int64) -> String {
        let seconds = max(0, micros / 1_000_000)
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7_200 { return "\(seconds / 60) min" }
        if seconds < 172_800 { return "\(seconds / 3_600) h" }
        return "\(seconds / 86_400) days"
    }

    /// Plain names of `types`, comma-separated.
    private static func names(_ types: [ObjectType]) -> String {
        types.map(PlainTypeName.labelled).joined(separator: ", ")
    }

    private static func orDash(_ text: String) -> String {
        text.isEmpty ? "-" : TableFormatter.singleLine(text)
    }
}
