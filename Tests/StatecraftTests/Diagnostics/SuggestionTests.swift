import Testing

@testable import Statecraft

struct SuggestionTests {
    @Test func suggestsCloseNamesOnly() {
        let states = ["parked", "unstarted", "drivingAround"]
        #expect(Suggestion.closest(to: "parkd", in: states) == "parked")
        #expect(Suggestion.closest(to: "Parked", in: states) == "parked")
        #expect(Suggestion.closest(to: "drivingaroud", in: states) == "drivingAround")
        #expect(Suggestion.closest(to: "flying", in: states) == nil)
        #expect(Suggestion.didYouMean("unstarted2", in: states) == " (did you mean 'unstarted'?)")
        #expect(Suggestion.didYouMean("x", in: [String]()) == "")
    }
}
