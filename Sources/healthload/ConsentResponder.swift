import Foundation
import HealthBrokerClient

/// A consent agent for the load apps: while it runs, it answers their prompts on the admin socket
/// with share allowed and read limited to samples from `readFromMicros` on. Others' prompts are left alone.
///
/// `answeredCount` and `task` are guarded by `answered`.
final class ConsentResponder: @unchecked Sendable {
    private let admin: BrokerAdmin
    private let appIDs: Set<String>
    private let readFromMicros: Int64
    private let answered = NSLock()
    private var answeredCount = 0
    private var task: Task<Void, Never>?

    /// An agent answering for `appIDs` over `admin`.
    init(admin: BrokerAdmin, appIDs: Set<String>, readFromMicros: Int64) {
        self.admin = admin
        self.appIDs = appIDs
        self.readFromMicros = readFromMicros
    }

    /// The answer to `prompt`: every share type allowed, every read type limited.
    static func decisions(for prompt: Prompt, readFromMicros: Int64) -> [TypeDecision] {
        let types = Set(prompt.shareTypes).union(prompt.readTypes).sorted()
        return types.map { type in
            TypeDecision(
                type: type,
                share: prompt.shareTypes.contains(type) ? .allow : nil,
                read: prompt.readTypes.contains(type) ? .limited(fromMicros: readFromMicros) : nil)
        }
    }

    /// Starts watching (pending prompts come first, so prompts raised before this are answered too).
    func start() {
        let watch = Task { [admin, appIDs, readFromMicros, weak self] in
            do {
                for try await event in admin.watchPrompts() {
                    guard case .raised(let prompt) = event, appIDs.contains(prompt.appID) else { continue }
                    let decisions = Self.decisions(for: prompt, readFromMicros: readFromMicros)
                    if (try? await admin.answerPrompt(prompt.id, decisions: decisions)) != nil {
                        self?.countAnswer()
                    }
                }
            } catch {
                // The watch ends when the task is cancelled or the connection closes.
            }
        }
        answered.withLock { task = watch }
    }

    /// Stops watching.
    func stop() {
        answered.withLock { task }?.cancel()
    }

    /// Prompts answered so far.
    var count: Int { answered.withLock { answeredCount } }

    private func countAnswer() {
        answered.withLock { answeredCount += 1 }
    }
}
