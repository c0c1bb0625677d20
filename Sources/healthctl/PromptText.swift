import BrokerModel

/// What the consent agents print about prompts: the introduction of a prompt and how prompts end.
enum PromptText {
    /// The lines introducing a prompt: who asks, why, and the undecided types (as aliases).
    static func introduction(_ prompt: Prompt) -> [String] {
        var lines = ["prompt \(prompt.id): \(TableFormatter.singleLine(prompt.appName)) (\(prompt.appID)) asks for access"]
        var details: [[String]] = []
        if !prompt.readTypes.isEmpty { details.append(["  why it reads:", orDash(prompt.readUsage)]) }
        if !prompt.shareTypes.isEmpty { details.append(["  why it shares:", orDash(prompt.shareUsage)]) }
        if !prompt.shareTypes.isEmpty { details.append(["  to share (write):", DecisionText.aliases(prompt.shareTypes)]) }
        if !prompt.readTypes.isEmpty { details.append(["  to read:", DecisionText.aliases(prompt.readTypes)]) }
        details.append(["  raised:", UTCTimestamp.string(micros: prompt.createdMicros)])
        lines.append(TableFormatter.render(rows: details))
        return lines
    }

    /// The question for one part of one type, ending in `: ` for the answer.
    static func question(_ question: ConsentQuestion) -> String {
        switch question {
        case .share(let type): "  share \(TypeArgument.alias(of: type))? \(AnswerParser.shareChoices): "
        case .read(let type): "  read \(TypeArgument.alias(of: type))? \(AnswerParser.readChoices): "
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

    private static func orDash(_ text: String) -> String {
        text.isEmpty ? "-" : TableFormatter.singleLine(text)
    }
}
