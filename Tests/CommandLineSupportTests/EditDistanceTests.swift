@testable import CommandLineSupport
import Testing

@Suite struct EditDistanceTests {
    @Test func distances() {
        #expect(EditDistance.between("", "abc") == 3)
        #expect(EditDistance.between("socket", "socket") == 0)
        #expect(EditDistance.between("sokcet", "socket") == 2)
        #expect(EditDistance.between("kitten", "sitting") == 3)
    }

    @Test func closestWithinTwoEdits() {
        #expect(EditDistance.closest(to: "jsn", among: ["json", "socket"]) == "json")
        #expect(EditDistance.closest(to: "sockets", among: ["json", "socket"]) == "socket")
        #expect(EditDistance.closest(to: "xyz", among: ["json", "socket"]) == nil)
    }

    @Test func tinyCandidatesAreNotSuggestedForUnrelatedWords() {
        #expect(EditDistance.closest(to: "zz", among: ["db"]) == nil)
    }

    @Test func tiesGoToTheFirstCandidate() {
        #expect(EditDistance.closest(to: "lst", among: ["last", "list"]) == "last")
    }
}
