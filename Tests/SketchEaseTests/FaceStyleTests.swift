import Foundation
import SketchEase
import Testing

@Suite struct FaceStyleTests {
    @Test func wordsSplitIntoAssignmentsAndTheRest() {
        let (others, assignments) = FaceStyle.words(["pencil", "darkness=2", "grain=", "=3", "darkness=2.5", "x=y=z"])
        #expect(others == ["pencil", "=3"])
        #expect(assignments == ["darkness": "2.5", "grain": "", "x": "y=z"])
        #expect(FaceStyle.words([]).others.isEmpty && FaceStyle.words([]).assignments.isEmpty)
    }

    @Test func aNamedStyleHasTheFiltersDefaultsAndAnUnknownNameIsRefused() throws {
        let pencil = try FaceStyle.named("pencil")
        #expect(pencil.filterID == "pencil")
        #expect(pencil.settings == (try FilterRegistry.standard.settings(for: "pencil", assignments: [:])))
        #expect(throws: (any Error).self) { try FaceStyle.named("crayon") }
    }
}
