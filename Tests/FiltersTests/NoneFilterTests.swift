import Testing
import Vips
@testable import Filters

@Suite struct NoneFilterTests {
    @Test func leavesTheFaceExactlyAsItIs() throws {
        let crop = try FilterBench.faceCrop()
        #expect(try FilterBench.render("none", crop).pixels() == crop.pixels())
        #expect(FilterRegistry.standard.ids.contains("none"))
    }
}
