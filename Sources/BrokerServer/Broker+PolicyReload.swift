public import BrokerModel
public import BrokerPolicy
import BrokerSupport
import BrokerTransport
import Foundation

extension Broker {
    /// Reads and parses a consent policy file, as SIGHUP does (the daemon's flag parsing uses it too).
    ///
    /// - Throws: INVALID_ARGUMENT naming the file and what is wrong with it.
    public static func loadConsentPolicy(_ path: String) throws(BrokerError) -> ConsentPolicy {
        try ConsentPolicyFile.load(path)
    }

    /// SIGHUP: reads the consent policy file again and, if it is valid, decides with it from now on.
    ///
    /// Nothing else changes: connections, calls, open prompts (already past the policy) and the
    /// store are untouched. An invalid or unreadable file is refused with a log line and the policy
    /// in force stays. Without `--consent-policy` there is nothing to reload; that is logged too.
    /// Loop thread only.
    func reloadConsentPolicy() {
        loop.assertInLoop()
        guard let path = configuration.consentPolicyPath else {
            logger.info("SIGHUP: no consent policy file to reload (started without --consent-policy)")
            return
        }
        guard state == .running else {
            logger.info("SIGHUP ignored while shutting down", ["policy": path])
            return
        }
        policyReloadsStarted &+= 1
        configuration.onReloading?()
        let reload = policyReloadsStarted
        let this = LoopBound(self, loop: loop)
        let loop = self.loop
        // The file is read and parsed off the loop: the loop never waits on disk (a policy on a
        // slow or hung mount must not stall every connection).
        let reader = Thread {
            let result = Result { () throws(BrokerError) in try ConsentPolicyFile.load(path) }
            loop.execute { this.value.finishPolicyReload(reload, path: path, result: result) }
        }
        reader.name = "healthbroker-policy"
        reader.start()
    }

    /// Applies a reload's outcome on the loop; a reload overtaken by a later SIGHUP's is dropped,
    /// so the policy in force is always the file as the last signal found it.
    private func finishPolicyReload(_ reload: UInt64, path: String, result: Result<ConsentPolicy, BrokerError>) {
        guard reload > policyReloadsApplied else {
            logger.debug("an earlier consent policy reload finished after a later one; dropped", ["policy": path])
            return
        }
        policyReloadsApplied = reload
        switch result {
        case .success(let policy):
            consentPolicy = policy
            logger.info("consent policy reloaded", ["policy": path, "rules": policy.ruleCount])
        case .failure(let error):
            logger.warning("consent policy reload refused; the previous policy stays", ["policy": path, "error": error.message])
        }
        // Serving again once the last reload begun has ended (an overtaken one never gets here
        // after it): either policy is in force, and the broker never stopped serving.
        if reload == policyReloadsStarted, state == .running { configuration.onReady?() }
    }
}
