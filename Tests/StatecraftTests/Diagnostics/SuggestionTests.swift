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

    @Test func equallyCloseCandidatesGiveOneSuggestionWhateverTheirOrder() {
        // 's2' is one edit from both; a dictionary's keys come in a different order each run.
        let candidates = ["s03", "s02", "s12"]
        #expect(Suggestion.closest(to: "s2", in: candidates) == "s02")
        #expect(Suggestion.closest(to: "s2", in: candidates.reversed()) == "s02")
        #expect(Suggestion.closest(to: "s2", in: ["s12", "s02"]) == "s02")
    }
}
