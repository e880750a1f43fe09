import Foundation
import Testing
@testable import Filters

@Suite struct FilterRegistryTests {
    let registry = FilterRegistry.standard

    @Test func everyFilterHasAnIdNameSummaryAndUniqueParameters() {
        #expect(Set(registry.ids).count == registry.ids.count)
        for f in registry.filters {
            #expect(!f.id.isEmpty && !f.name.isEmpty && !f.summary.isEmpty)
            #expect(Set(f.parameters.map(\.id)).count == f.parameters.count)
        }
    }

    /// Issue 24: every drawing style is judged blind against its nearest peers, and one that
    /// loses where it is drawn alone says so, with what to do instead (draw the whole photo).
    @Test func everyDrawingStyleSaysHowItWasJudged() throws {
        for f in registry.filters where f.takesPhotoTone {
            let judged = try #require(f.judged, "\(f.id) does not say how it was judged")
            #expect(judged.hasPrefix("Judged blind against "), "\(f.id): \(judged)")
            if judged.contains("ranks below") {
                #expect(judged.contains("`--background-filter \(f.id)`"), "\(f.id) loses without saying what wins")
            }
        }
        #expect(registry.filters.filter { !$0.takesPhotoTone }.allSatisfy { $0.judged == nil })
    }

    @Test func unknownFilterNamesTheChoices() {
        let error = #expect(throws: FilterError.self) { try registry.filter("crayon") }
        #expect(error?.description.contains("pencil") == true)
    }

    @Test func parametersAreParsedAndRangeChecked() throws {
        let settings = try registry.settings(for: "pencil", assignments: ["darkness": "2.5"])
        #expect(settings.number("darkness") == 2.5)
        #expect(settings.number("stroke") == 0.06) // default
        #expect(throws: FilterError.self) { try registry.settings(for: "pencil", assignments: ["darkness": "99"]) }
        #expect(throws: FilterError.self) { try registry.settings(for: "pencil", assignments: ["darkness": "dark"]) }
        #expect(throws: FilterError.self) { try registry.settings(for: "pencil", assignments: ["hue": "1"]) }
    }

    @Test func parameterKindsParse() throws {
        let flag = FilterParameter("f", .flag(defaultValue: false), "")
        #expect(try flag.parse("yes") == .flag(true))
        let choice = FilterParameter("c", .choice(options: ["a", "b"], defaultValue: "a"), "")
        #expect(throws: FilterError.self) { try choice.parse("z") }
        let colour = FilterParameter("k", .colour(defaultValue: "#00ff00"), "")
        #expect(try colour.parse("#FF8000") == .text("#ff8000"))
        #expect(throws: FilterError.self) { try colour.parse("orange") }
        let choices = FilterParameter("m", .choices(options: ["x", "y", "z"], defaultValue: ["x"]), "")
        #expect(choices.defaultValue == .text("x"))
        #expect(try choices.parse("z,x,z") == .text("x,z"))
        #expect(throws: FilterError.self) { try choices.parse("x,w") }
        #expect(choices.rangeDescription.contains("comma-separated"))
    }

    /// Issue 22 (9): charcoal's stroke (0.002–0.05, default 0.006) sat at the first tenth of a
    /// linear slider and its middle (0.026) drew black blobs. Sizes and strengths spanning a
    /// factor of 5 or more move on a logarithmic slider, whose middle is each default's
    /// neighbourhood; and the widths that blotted a face at the top of their range stop where a
    /// face still reads (looked at rendered at min, default, middle and max of every parameter).
    @Test func sizeSlidersAreLogarithmicWithTheDefaultNearTheMiddle() throws {
        var logarithmic: [String] = []
        for f in registry.filters {
            for p in f.parameters {
                guard case .number(let range, let value) = p.kind, p.logarithmicSlider else { continue }
                logarithmic.append("\(f.id).\(p.id)")
                let position = log(value / range.lowerBound) / log(range.upperBound / range.lowerBound)
                #expect((0.35...0.75).contains(position), "\(f.id).\(p.id): default at \(position) of its slider")
            }
        }
        #expect(["charcoal.stroke", "ink.line", "pencil.stroke", "cartoon.thickness", "relief.smoothing"].allSatisfy(logarithmic.contains),
                "\(logarithmic)")
        // A probability or a mix stays linear.
        #expect(!logarithmic.contains("charcoal.shading") && !logarithmic.contains("pencil.colour"))
        let stroke = try registry.filter("charcoal").parameters.first { $0.id == "stroke" }
        #expect(stroke?.rangeDescription == "0.002...0.015 (default 0.006)")
        let line = try registry.filter("ink").parameters.first { $0.id == "line" }
        #expect(line?.rangeDescription == "0.001...0.012 (default 0.0035)")
    }
}
