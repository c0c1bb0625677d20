import BrokerModel
import BrokerPolicy
import BrokerStore
import BrokerSupport
import BrokerWire

extension Broker {
    /// The person's own statistics (AdminStatistics, admin socket only): the app's Statistics
    /// parameters and rules, over every source's samples of the type, with no read scope and no
    /// floor. Buckets without samples are left out; no samples at all is an empty answer, not
    /// NO_DATA (a chart of nothing). Not written to the access log: no app read anything.
    func handleAdminStatistics(_ query: StatisticsQuery, context: CallContext) {
        let descriptor: TypeDescriptor
        let converter: UnitConverter
        let boundaries: [Int64]
        do throws(BrokerError) {
            (descriptor, converter) = try validatedStatistics(query)
            boundaries = try StatisticsRules.boundaries(for: query, fallbackStart: configuration.earliestPermittedMicros, fallbackEnd: Microseconds.now() + 1)
        } catch {
            finish(context, error: error)
            return
        }
        worker.submit({ store throws(BrokerError) in
            try store.allSourcesStatistics(
                type: query.type, predicate: query.predicate, boundaries: boundaries, mergeSources: descriptor.aggregation == .cumulative)
        }) { [weak self] result in
            guard let self else { return }
            self.noteStoreResult(result)
            do throws(BrokerError) {
                let shown = try result.get().filter { $0.sampleCount > 0 }.map { bucket throws(BrokerError) in
                    try self.present(bucket, options: query.options, converter: converter)
                }
                self.reply(context, .adminStatistics(StatisticsResult(unit: converter.unit, buckets: shown).adminProto))
            } catch {
                self.finish(context, error: error)
            }
        }
    }
}
