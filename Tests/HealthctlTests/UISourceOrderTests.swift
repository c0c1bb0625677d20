import BrokerModel
import Foundation
@testable import healthctl
import Testing

@Suite struct UISourceOrderTests {
    static let phone = UIJSON.SourceEntry(appID: "com.example.phone", name: "Phone")
    static let watch = UIJSON.SourceEntry(appID: "com.example.watch", name: "Watch")
    static let scale = UIJSON.SourceEntry(appID: "com.example.a-scale", name: "Scale")

    @Test func withoutAnOrderSourcesRankByAppIDAsTheMergeDoes() {
        let order = UIJSON.SourceOrder(type: .stepCount, priority: [], sources: [Self.watch, Self.phone, Self.scale])
        #expect(!order.custom)
        #expect(order.sources.map(\.appID) == ["com.example.a-scale", "com.example.phone", "com.example.watch"])
        #expect(order.type.alias == "stepCount" && order.type.cumulative)
    }

    @Test func theOrderSetComesFirstThenTheOthersByAppID() {
        // An app in the order without samples of the type (not among the sources) is not shown.
        let order = UIJSON.SourceOrder(
            type: .stepCount, priority: ["com.example.watch", "com.example.gone"], sources: [Self.phone, Self.scale, Self.watch])
        #expect(order.custom)
        #expect(order.sources.map(\.appID) == ["com.example.watch", "com.example.a-scale", "com.example.phone"])
    }

    @Test func theReplyEncodesTypesAndSourcesForThePage() throws {
        let reply = UIJSON.SourcesReply(orders: [UIJSON.SourceOrder(type: .stepCount, priority: ["com.example.watch"], sources: [Self.phone, Self.watch])])
        let object = try #require(JSONSerialization.jsonObject(with: Data(UIJSON.encode(reply))) as? [String: Any])
        let orders = try #require(object["orders"] as? [[String: Any]])
        #expect(orders.count == 1)
        #expect(orders[0]["custom"] as? Bool == true)
        #expect((orders[0]["type"] as? [String: Any])?["alias"] as? String == "stepCount")
        let sources = try #require(orders[0]["sources"] as? [[String: String]])
        #expect(sources == [["appID": "com.example.watch", "name": "Watch"], ["appID": "com.example.phone", "name": "Phone"]])
    }

    @Test func aChangeKeepsAppsListedEarlierThatAreNotShown() throws {
        let change = try JSONDecoder().decode(UIPriorityChange.self, from: Data(#"{"type":"stepCount","apps":["com.p","com.w"]}"#.utf8))
        let order = try change.order(previous: ["com.w", "com.old", "com.p"])
        #expect(order.type == .stepCount)
        #expect(order.appIDs == ["com.p", "com.w", "com.old"])
    }

    @Test func aResetClearsTheOrder() throws {
        let change = try JSONDecoder().decode(UIPriorityChange.self, from: Data(#"{"type":"HKQuantityTypeIdentifierStepCount","reset":true}"#.utf8))
        #expect(try change.order(previous: ["com.w"]).appIDs == [])
    }

    @Test func badOrdersAreRefusedWithAMessage() {
        #expect(throws: UIPriorityChange.Invalid(message: "unknown type nosuch")) {
            try UIPriorityChange(type: "nosuch", apps: ["a"]).order(previous: [])
        }
        #expect(throws: UIPriorityChange.Invalid(message: "com.p is listed twice")) {
            try UIPriorityChange(type: "stepCount", apps: ["com.p", "com.w", "com.p"]).order(previous: [])
        }
        #expect(throws: UIPriorityChange.Invalid(message: "give the sources in order, or reset")) {
            try UIPriorityChange(type: "stepCount", apps: []).order(previous: [])
        }
        #expect(throws: UIPriorityChange.Invalid(message: "a reset takes no apps")) {
            try UIPriorityChange(type: "stepCount", apps: ["com.p"], reset: true).order(previous: [])
        }
        #expect(throws: UIPriorityChange.Invalid(message: "an app id is empty")) {
            try UIPriorityChange(type: "stepCount", apps: [""]).order(previous: [])
        }
    }
}
