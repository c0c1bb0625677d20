import BrokerModel
import BrokerSupport
@testable import healthctl
import Testing

@Suite struct ConsentConversationTests {
    static let now = UTCTimestamp.micros(fromDate: "2026-06-15")!
    static let prompt = Samples.prompt()

    static func ask(_ question: ConsentQuestion) -> ConsentEffect { .ask(PromptText.question(question)) }

    /// A conversation that has shown `prompt` and asked its first question.
    static func asking(_ prompt: Prompt = prompt, once: Bool = false) -> ConsentConversation {
        var conversation = ConsentConversation(once: once)
        _ = conversation.receive(.raised(prompt))
        return conversation
    }

    @Test func aRaisedPromptIsIntroducedThenAskedTypeByType() {
        var conversation = ConsentConversation()
        #expect(conversation.start() == [.say(ConsentConversation.waitingLine)])
        let effects = conversation.receive(.raised(Self.prompt))
        let introduction = PromptText.introduction(Self.prompt).map(ConsentEffect.say)
        #expect(effects == introduction + [.say(ConsentConversation.cancelHint), Self.ask(.share(.bodyMass))])
        #expect(conversation.currentPromptID == 7)
    }

    @Test func theIntroductionNamesTheAppItsReasonsAndTypes() {
        let text = PromptText.introduction(Self.prompt).joined(separator: "\n")
        #expect(text.hasPrefix("prompt 7: Steps (com.example.steps) asks for access"))
        #expect(text.contains("Shows your step trends."))
        #expect(text.contains("Logs walks."))
        #expect(text.contains("Body weight (bodyMass)"))
        #expect(text.contains("Steps (stepCount), Heart rate (heartRate)"))
    }

    @Test func answersAreCollectedAndSentTogether() {
        var conversation = Self.asking()
        #expect(conversation.receive(line: "allow", now: Self.now) == [Self.ask(.read(.stepCount))])
        #expect(conversation.receive(line: "last 30 days", now: Self.now) == [Self.ask(.read(.heartRate))])
        let decisions = [
            TypeDecision(type: .bodyMass, share: .allow),
            TypeDecision(type: .stepCount, read: .limited(fromMicros: Self.now - 30 * Samples.day)),
            TypeDecision(type: .heartRate, read: .full),
        ]
        #expect(conversation.receive(line: "full", now: Self.now) == [.answer(promptID: 7, decisions: decisions)])
        #expect(conversation.sent(.done) == [
            .say("answered prompt 7: share bodyMass allowed; read stepCount limited from 2026-05-16, heartRate full"),
            .say(ConsentConversation.waitingLine),
        ])
        // The broker's own "answered" event for it is not echoed.
        #expect(conversation.receive(.resolved(promptID: 7, resolution: .answered)) == [])
    }

    @Test func blankAndUnclearLinesRepeatTheQuestion() {
        var conversation = Self.asking()
        #expect(conversation.receive(line: "", now: Self.now) == [Self.ask(.share(.bodyMass))])
        #expect(conversation.receive(line: "maybe", now: Self.now) == [.say("  type allow / deny, or cancel"), Self.ask(.share(.bodyMass))])
        #expect(conversation.currentPromptID == 7)
    }

    @Test func aTypeAskedToShareAndReadGetsOneDecision() {
        var conversation = Self.asking(Samples.prompt(share: [.stepCount], read: [.stepCount]))
        _ = conversation.receive(line: "deny", now: Self.now)
        #expect(conversation.receive(line: "full", now: Self.now) == [
            .answer(promptID: 7, decisions: [TypeDecision(type: .stepCount, share: .deny, read: .full)]),
        ])
    }

    @Test func cancelCancelsTheWholePrompt() {
        var conversation = Self.asking()
        _ = conversation.receive(line: "allow", now: Self.now)
        #expect(conversation.receive(line: "cancel", now: Self.now) == [.cancel(promptID: 7)])
        #expect(conversation.sent(.done) == [
            .say("cancelled prompt 7: the app is told the person cancelled"), .say(ConsentConversation.waitingLine),
        ])
    }

    @Test func anAnswerThatCameTooLateSaysSo() {
        var conversation = Self.asking(Samples.prompt(share: [], read: [.stepCount]))
        _ = conversation.receive(line: "deny", now: Self.now)
        #expect(conversation.sent(.alreadyResolved) == [
            .say("prompt 7: this prompt was already answered or withdrawn"), .say(ConsentConversation.waitingLine),
        ])
    }

    @Test func aRefusedAnswerIsReportedAndTheAgentMovesOn() {
        var conversation = Self.asking(Samples.prompt(share: [], read: [.stepCount]))
        _ = conversation.receive(line: "deny", now: Self.now)
        #expect(conversation.sent(.failed("INVALID_ARGUMENT: no")) == [
            .say("could not answer prompt 7: INVALID_ARGUMENT: no"), .say(ConsentConversation.waitingLine),
        ])
    }

    @Test func promptsWaitTheirTurn() {
        var conversation = Self.asking(Samples.prompt(share: [], read: [.stepCount]))
        let second = Samples.prompt(id: 8, share: [], read: [.heartRate])
        #expect(conversation.receive(.raised(second)) == [
            .say(""), .say("(prompt 8 from com.example.steps is waiting; it comes after this one)"), Self.ask(.read(.stepCount)),
        ])
        #expect(conversation.queue.map(\.id) == [8])
        _ = conversation.receive(line: "full", now: Self.now)
        let next = conversation.sent(.done)
        #expect(next.first == .say("answered prompt 7: read stepCount full"))
        #expect(next.last == Self.ask(.read(.heartRate)))
        #expect(conversation.currentPromptID == 8)
    }

    @Test func aPromptResolvedElsewhereWhileAskedIsDropped() {
        var conversation = Self.asking()
        let second = Samples.prompt(id: 8, share: [], read: [.heartRate])
        _ = conversation.receive(.raised(second))
        let effects = conversation.receive(.resolved(promptID: 7, resolution: .withdrawn))
        #expect(Array(effects.prefix(4)) == [
            .say(""), .say("prompt 7 withdrawn (the app stopped waiting)"),
            .say("  this request was answered elsewhere or withdrawn; its questions are dropped"),
            .say(PromptText.introduction(second)[0]),
        ])
        #expect(conversation.currentPromptID == 8)
    }

    @Test func aQueuedPromptResolvedElsewhereLeavesTheQueue() {
        var conversation = Self.asking()
        _ = conversation.receive(.raised(Samples.prompt(id: 8)))
        #expect(conversation.receive(.resolved(promptID: 8, resolution: .answered)) == [
            .say("prompt 8 answered elsewhere (by another agent or the daemon's policy)"),
        ])
        #expect(conversation.queue.isEmpty)
        #expect(conversation.currentPromptID == 7)
    }

    @Test func resolvedEventsOfOtherPromptsArePrinted() {
        var conversation = ConsentConversation()
        #expect(conversation.receive(.resolved(promptID: 3, resolution: .cancelled)) == [
            .say("prompt 3 cancelled elsewhere (the app was told the person cancelled)"),
        ])
    }

    @Test func aRepeatedRaisedEventIsIgnored() {
        var conversation = Self.asking()
        #expect(conversation.receive(.raised(Self.prompt)) == [])
        #expect(conversation.queue.isEmpty)
    }

    @Test func linesWithNoPromptAreAnsweredKindly() {
        var conversation = ConsentConversation()
        #expect(conversation.receive(line: "full", now: Self.now) == [.say("no prompt is waiting for an answer")])
        #expect(conversation.receive(line: "  ", now: Self.now) == [])
    }

    @Test func endOfInputLeavesTheCurrentPromptPending() {
        var conversation = Self.asking()
        #expect(conversation.endOfInput() == [.say(""), .say("input ended; prompt 7 stays pending for another agent"), .finish])
        var idle = ConsentConversation()
        #expect(idle.endOfInput() == [.finish])
    }

    @Test func onceFinishesAfterTheFirstAnswer() {
        var conversation = Self.asking(Samples.prompt(share: [], read: [.stepCount]), once: true)
        _ = conversation.receive(.raised(Samples.prompt(id: 8)))
        _ = conversation.receive(line: "full", now: Self.now)
        #expect(conversation.sent(.done) == [.say("answered prompt 7: read stepCount full"), .finish])
    }

    @Test func onceKeepsGoingWhenTheAnswerCameTooLate() {
        var conversation = Self.asking(Samples.prompt(share: [], read: [.stepCount]), once: true)
        _ = conversation.receive(line: "full", now: Self.now)
        #expect(!conversation.sent(.alreadyResolved).contains(.finish))
    }

    @Test func allowAllAnswersEveryRemainingQuestion() {
        var conversation = Self.asking()
        #expect(conversation.receive(line: "deny", now: Self.now) == [Self.ask(.read(.stepCount))])
        #expect(conversation.receive(line: " Allow  ALL ", now: Self.now) == [.answer(promptID: 7, decisions: [
            TypeDecision(type: .bodyMass, share: .deny),
            TypeDecision(type: .stepCount, read: .full),
            TypeDecision(type: .heartRate, read: .full),
        ])])
    }

    @Test func denyAllDeniesEveryQuestion() {
        var conversation = Self.asking()
        #expect(conversation.receive(line: "deny all", now: Self.now) == [.answer(promptID: 7, decisions: [
            TypeDecision(type: .bodyMass, share: .deny),
            TypeDecision(type: .stepCount, read: .deny),
            TypeDecision(type: .heartRate, read: .deny),
        ])])
    }

    @Test func aQuestionMarkExplainsAndAsksAgain() {
        var conversation = Self.asking()
        let effects = conversation.receive(line: "?", now: Self.now)
        #expect(effects == PromptText.help().map(ConsentEffect.say) + [Self.ask(.share(.bodyMass))])
        #expect(PromptText.help().joined().contains("cannot tell that older data exists"))
    }

    @Test func aCharacteristicTakesAllowOrDenyOnly() {
        var conversation = Self.asking(Samples.prompt(share: [], read: [.dateOfBirth]))
        #expect(PromptText.question(.read(.dateOfBirth)) == "  read Date of birth (dateOfBirth)? allow / deny (? explains): ")
        let refused = conversation.receive(line: "limited 2020-01-01", now: Self.now)
        #expect(refused.count == 2)
        if case .say(let why) = refused.first { #expect(why.contains("is a characteristic")) } else { Issue.record("\(refused)") }
        #expect(conversation.receive(line: "allow", now: Self.now) == [.answer(promptID: 7, decisions: [TypeDecision(type: .dateOfBirth, read: .full)])])
    }

    @Test func questionsUsePlainNames() {
        #expect(PromptText.question(.share(.stepCount)).hasPrefix("  share Steps (stepCount)? "))
        #expect(PlainTypeName.of(.restingHeartRate) == "Resting heart rate")
        #expect(PlainTypeName.of(.heartRate) == "Heart rate")
    }

    @Test func theBrokerGoingAwayIsSaidOnceAndTheBacklogIsAskedAgain() {
        var conversation = Self.asking()
        #expect(conversation.disconnected() == [.say(""), .say("broker gone; reconnecting…")])
        #expect(conversation.disconnected() == [])
        #expect(conversation.currentPromptID == nil)
        #expect(conversation.receive(line: "full", now: Self.now) == [.say("the broker is gone; still reconnecting…")])
        #expect(conversation.reconnected() == [.say("reconnected"), .say(ConsentConversation.waitingLine)])
        _ = conversation.receive(.raised(Self.prompt))
        #expect(conversation.currentPromptID == 7)
    }

    @Test func theIntroductionSaysHowLongAgoThePromptWasRaised() {
        let text = PromptText.introduction(Self.prompt, now: Samples.june1 + 180 * 1_000_000).joined(separator: "\n")
        #expect(text.contains("(3 min ago; the app is waiting)"))
    }

    @Test func theIntroductionSaysUntilWhenTheAppWaitsInLocalTime() {
        let deadline = Samples.june1 + 300 * Samples.second
        let prompt = Samples.prompt(deadline: deadline)
        let text = PromptText.introduction(prompt, now: Samples.june1 + 60 * Samples.second).joined(separator: "\n")
        #expect(text.contains("answer by:"), "\(text)")
        #expect(text.contains("\(LocalTime.clockString(micros: deadline)) (4 min left)"), "\(text)")
        #expect(!text.contains(LocalTime.string(micros: deadline)), "today's deadline shows as a time of day: \(text)")
        #expect(PromptText.deadline(prompt, now: Samples.june1) == "\(LocalTime.clockString(micros: deadline)) (5 min left)")
        #expect(PromptText.deadline(prompt, now: deadline + Samples.second).hasSuffix("(the time is up)"))
        // A deadline on another day names the day.
        let tomorrow = Samples.prompt(deadline: Samples.june1 + 2 * Samples.day)
        #expect(PromptText.deadline(tomorrow, now: Samples.june1) == "\(LocalTime.string(micros: tomorrow.deadlineMicros)) (2 days left)")
    }

    @Test func aPromptWithoutADeadlineSaysThereIsNoTimeLimit() {
        let text = PromptText.introduction(Self.prompt, now: Samples.june1).joined(separator: "\n")
        #expect(text.contains("answer by:"), "\(text)")
        #expect(text.contains("no time limit (the app waits until you answer)"), "\(text)")
    }

    @Test func aQueuedPromptSaysUntilWhenItWaits() {
        var conversation = Self.asking(Samples.prompt(share: [], read: [.stepCount]))
        let deadline = Microseconds.now() + 600 * Samples.second
        let second = Samples.prompt(id: 8, share: [], read: [.heartRate], deadline: deadline)
        let effects = conversation.receive(.raised(second))
        guard case .say(let note)? = effects.dropFirst().first else {
            Issue.record("no note: \(effects)")
            return
        }
        #expect(note.hasPrefix("(prompt 8 from com.example.steps is waiting, answer by \(LocalTime.clockString(micros: deadline))")
            || note.hasPrefix("(prompt 8 from com.example.steps is waiting, answer by \(LocalTime.string(micros: deadline))"), "\(note)")
        #expect(note.hasSuffix("min left); it comes after this one)"), "\(note)")
    }
}
