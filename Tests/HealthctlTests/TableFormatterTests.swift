@testable import healthctl
import Testing

@Suite struct TableFormatterTests {
    @Test func columnsAreLeftAlignedWithTwoSpaces() {
        let table = TableFormatter.render(header: ["A", "BB"], rows: [["xxx", "y"], ["z", "wwww"]])
        #expect(table == "A    BB\nxxx  y\nz    wwww")
    }

    @Test func shortRowsArePaddedAndTrailingSpacesTrimmed() {
        let table = TableFormatter.render(rows: [["a", "b", "c"], ["dd"], ["", "", "e"]])
        #expect(table == "a   b  c\ndd\n       e")
    }

    @Test func noRowsRenderNothing() {
        #expect(TableFormatter.render(rows: []) == "")
    }

    @Test func widthsCountCharactersNotBytes() {
        let table = TableFormatter.render(rows: [["é", "x"], ["ab", "y"]])
        #expect(table == "é   x\nab  y")
    }

    @Test func controlCharactersCannotBreakARow() {
        #expect(TableFormatter.singleLine("a\tb\nc\u{7}d\r") == "a b c d ")
        let table = TableFormatter.render(rows: [["one\ntwo", "x"]])
        #expect(table == "one two  x")
        #expect(!table.contains("\n"))
    }

    @Test func clipKeepsShortTextAndEllipsizesLongText() {
        #expect(TableFormatter.clip("abc", to: 5) == "abc")
        #expect(TableFormatter.clip("abcde", to: 5) == "abcde")
        #expect(TableFormatter.clip("hello world", to: 5) == "hell…")
        #expect(TableFormatter.clip("hello world", to: 5).count == 5)
    }

    @Test func clipDropsSpacesBeforeTheEllipsis() {
        #expect(TableFormatter.clip("ab cdef", to: 4) == "ab…")
    }

    @Test func clipToTinyWidths() {
        #expect(TableFormatter.clip("abc", to: 1) == "a")
        #expect(TableFormatter.clip("abc", to: 0) == "")
    }
}
