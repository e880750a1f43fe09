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

    @Test func unknownFilterNamesTheChoices() {
        let error = #expect(throws: FilterError.self) { try registry.filter("crayon") }
        #expect(error?.description.contains("pencil") == true)
    }

    @Test func parametersAreParsedAndRangeChecked() throws {
        let settings = try registry.settings(for: "pencil", assignments: ["darkness": "2.5"])
        #expect(settings.number("darkness") == 2.5)
        #expect(settings.number("stroke") == 0.03) // default
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
}
