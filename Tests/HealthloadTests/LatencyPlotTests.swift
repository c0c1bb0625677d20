import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import healthload
import Testing

/// The SVG latency-percentile plot.
@Suite("Latency plot")
struct LatencyPlotTests {
    /// Counts elements while parsing, failing on malformed XML.
    final class ElementCounter: NSObject, XMLParserDelegate {
        var counts: [String: Int] = [:]
        var texts: [String] = []
        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            counts[elementName, default: 0] += 1
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) {
            texts.append(string)
        }
    }

    private func table(scale: Double) -> [PercentilePoint] {
        var histogram = LatencyHistogram()
        for value in 1...10_000 { histogram.record(UInt64(Double(value) * scale)) }
        return histogram.percentileTable()
    }

    @Test func theSVGIsWellFormedWithOneLinePerSeriesAndEscapedText() throws {
        let plot = LatencyPlot(title: "ping & <easd> \"mix\"", series: [
            LatencyPlot.Series(name: "all calls", points: table(scale: 1_000)),
            LatencyPlot.Series(name: "save <slow>", points: table(scale: 50_000)),
        ])
        let svg = plot.svg()
        let parser = XMLParser(data: Data(svg.utf8))
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse(), "XML error: \(String(describing: parser.parserError))")
        #expect(counter.counts["svg"] == 1)
        #expect(counter.counts["polyline"] == 2)
        #expect(counter.texts.joined().contains("ping & <easd> \"mix\""))
        #expect(counter.texts.joined().contains("99.999%"))
        #expect(svg.contains("latency (ms)"))
    }

    @Test func anEmptyRunStillDrawsAValidPicture() {
        let svg = LatencyPlot(title: "nothing", series: [LatencyPlot.Series(name: "all calls", points: [])]).svg()
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse())
        #expect(!svg.contains("<polyline"))
    }

    @Test func theXAxisIsLogarithmicInTheRemainingShare() {
        let x0 = LatencyPlot.x(percentile: 0)
        let x90 = LatencyPlot.x(percentile: 90)
        let x99 = LatencyPlot.x(percentile: 99)
        let x999 = LatencyPlot.x(percentile: 99.9)
        #expect(x0 == LatencyPlot.left)
        #expect(abs((x99 - x90) - (x90 - x0)) < 1e-6)
        #expect(abs((x999 - x99) - (x90 - x0)) < 1e-6)
        #expect(abs(LatencyPlot.x(percentile: 100) - LatencyPlot.x(percentile: 99.999)) < 1e-6)
        #expect((0...5).map(LatencyPlot.percentLabel) == ["0%", "90%", "99%", "99.9%", "99.99%", "99.999%"])
    }

    @Test func axisStepsAreRound() {
        #expect(LatencyPlot.niceStep(3.7) == 5)
        #expect(LatencyPlot.niceStep(0.013) == 0.02)
        #expect(LatencyPlot.niceStep(170) == 200)
        #expect(LatencyPlot.niceStep(0) == 1)
    }
}
