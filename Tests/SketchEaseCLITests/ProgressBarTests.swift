import Foundation
import Testing
@testable import SketchEaseCLI

@Suite struct ProgressBarTests {
    func width(_ text: String) -> Int { LineEditor.width(of: text) }

    @Test func theBarFitsEveryTerminalWidth() {
        for columns in [20, 40, 60, 80, 120, 200] {
            for done in [0, 1, 17, 40] {
                let line = ProgressBar.line(done: done, total: 40, label: "a very long photo name from the camera 0001.jpg",
                                            elapsed: 12.5, unit: "photo", width: columns)
                #expect(width(line) < max(columns, 11), "\(columns) columns: \(line)")
                #expect(line.contains("\(done)/40"))
            }
        }
    }

    @Test func itShowsElapsedRateAndTimeLeftWhenThereIsRoom() {
        let line = ProgressBar.line(done: 10, total: 40, label: "IMG_0001.jpg", elapsed: 5, unit: "photo", width: 120)
        #expect(line.contains("10/40 5.0 s 2.0/s 15.0 s left IMG_0001.jpg"), "\(line)")
        // Narrow: the name goes first, then the rate; the count and the time left stay.
        let narrow = ProgressBar.line(done: 10, total: 40, label: "IMG_0001.jpg", elapsed: 5, unit: "photo", width: 40)
        #expect(narrow.contains("10/40") && narrow.contains("left") && !narrow.contains("IMG"), "\(narrow)")
        #expect(ProgressBar.duration(75) == "1:15" && ProgressBar.duration(3725) == "1:02:05")
    }

    @Test func wideCharactersInNamesAreCountedTwice() {
        let line = ProgressBar.line(done: 1, total: 2, label: "家族写真の集合写真.jpg", elapsed: 1, unit: "photo", width: 50)
        #expect(width(line) < 50, "\(line)")
    }
}
