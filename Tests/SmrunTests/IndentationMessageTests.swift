import Foundation
import Testing

/// A line indented one level off (issue 35): a state among another state's options, a row or a
/// state folded into the list item above, a key between two levels. One message says what
/// happened and where, and no cascade of wrong ones follows.
@Suite struct IndentationMessageTests {
    /// An order workflow; `shipping` written with `indent` spaces.
    private static func order(shipping indent: Int) -> String {
        """
        machine: order
        initial: cart
        context: { items: 0 }
        inputs:
          addItem: int
          checkout:
          pay:
          ship:
          deliver:
          cancel:
        states:
          cart:
          awaitingPayment:
        \(String(repeating: " ", count: indent))shipping:
          delivered: { final: true }
          cancelled: { final: true }
        effects:
          add: { set: { items: items + arg } }
        transitions:
          - addItem | cart | add
          - checkout | cart => awaitingPayment [items > 0]
          - pay | awaitingPayment => shipping
          - ship | shipping => shipping
          - deliver | shipping => delivered
          - cancel | cart, awaitingPayment, shipping => cancelled

        """
    }

    @Test func aStateAmongAnotherStatesOptionsIsSaidToBeThereOnce() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("order.yaml", Self.order(shipping: 3))
        let run = try Smrun.run(["validate", machine])
        #expect(run.exited(1))
        #expect(
            run.lines == [
                "\(machine):14:4: error: 'shipping' is declared under 'awaitingPayment', where its options go (entry, exit, final, description, states, initial, parallel, history, default, default_effects), not as a state; check the indentation: a state beside 'awaitingPayment' is indented as it is, and a child goes under its 'states:' [unknown-key]",
                "\(machine):22:30: error: 'shipping' is declared under 'awaitingPayment' at line 14, among its options, not as a state; check the indentation [undefined-state]",
            ], "\(run.text)")
        // Indented as its siblings, the machine loads.
        let fixed = try files.file("fixed.yaml", Self.order(shipping: 2))
        #expect(try Smrun.run(["validate", fixed]).exited(0))
    }

    @Test func aChildIndentedUnderItsSiblingIsSaidToBeThere() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "payment.yaml",
            """
            initial: idle
            states:
              idle:
              payment:
                initial: paying
                states:
                  authorizing:
                   paying:
            transitions:
              - start | idle => payment
              - authorize | paying => authorizing

            """)
        let run = try Smrun.run(["validate", machine])
        #expect(
            run.lines == [
                "\(machine):5:14: error: 'paying' is declared under 'authorizing' at line 8, among its options, not as a state; check the indentation [undefined-state]",
                "\(machine):8:8: error: 'paying' is declared under 'authorizing', where its options go (entry, exit, final, description, states, initial, parallel, history, default, default_effects), not as a state; check the indentation: a state beside 'authorizing' is indented as it is, and a child goes under its 'states:' [unknown-key]",
            ], "\(run.text)")
    }

    /// A key that is a typo of an option is one, not a state.
    @Test func aMistypedOptionIsStillAnUnknownKey() throws {
        let files = try TemporaryFiles()
        let machine = try files.file("typo.yaml", "initial: a\nstates:\n  a:\n    entyr: [hello]\n  b:\ntransitions:\n  - go | a => b\n")
        let run = try Smrun.run(["validate", machine])
        #expect(run.lines.count == 1, "\(run.text)")
        #expect(run.lines.first?.contains("unknown key 'entyr' in state 'a' (did you mean 'entry'?)") == true, "\(run.text)")
    }

    @Test func aRowIndentedUnderTheRowAboveIsSaidToBeFoldedIntoIt() throws {
        let files = try TemporaryFiles()
        let rows = """
            initial: cart
            states: [cart, paying, packing, shipped]
            transitions:
              - checkout | cart => paying
               - pay | paying => packing
               - ship | packing => shipped

            """
        let machine = try files.file("rows.yaml", rows)
        let run = try Smrun.run(["validate", machine])
        #expect(
            run.lines == [
                "\(machine):4:5: error: this row holds the rows of lines 5 and 6 too: their '- ' is indented more than this row's, so YAML continues this row there ('checkout | cart => paying - pay | paying => packing - ship | packing => shipped'); indent each row's '- ' alike [invalid-row]"
            ], "\(run.text)")
        let one = try files.file("one.yaml", rows.replacingOccurrences(of: "   - ship", with: "  - ship"))
        let folded = try Smrun.run(["validate", one])
        #expect(
            folded.lines == [
                "\(one):4:5: error: this row holds the row of line 5 too, 'pay | paying => packing': its '- ' is indented more than this row's, so YAML continues this row there ('checkout | cart => paying - pay | paying => packing'); indent each row's '- ' alike [invalid-row]"
            ], "\(folded.text)")
    }

    @Test func aStateIndentedUnderTheItemAboveIsSaidToBeFoldedIntoIt() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "list.yaml", "initial: cart\nstates:\n  - cart\n   - paying\n  - packing\ntransitions:\n  - checkout | cart => paying\n  - pay | paying => packing\n")
        let run = try Smrun.run(["validate", machine])
        #expect(
            run.lines == [
                "\(machine):3:5: error: this item holds the item of line 4 too, 'paying': its '- ' is indented more than this item's, so YAML continues this item there ('cart - paying'); indent each item's '- ' alike [invalid-name]"
            ], "\(run.text)")
    }

    /// A guard written over two lines with a subtraction is no folded row.
    @Test func aRowWrappedInsideItsGuardIsNoFold() throws {
        let files = try TemporaryFiles()
        let machine = try files.file(
            "wrapped.yaml", "initial: a\ncontext: { n: 3 }\nstates: [a, b]\ntransitions:\n  - go | a => b [n\n    - 1 > 0]\n  - back | b => a\n")
        let run = try Smrun.run(["validate", machine])
        #expect(run.exited(0), "\(run.text)\(run.errorText)")
    }

    @Test func aKeyBetweenTwoLevelsIsSaidToBe() throws {
        let files = try TemporaryFiles()
        // `shipping` with three spaces after the children of `awaitingPayment`, at six.
        let text = Self.order(shipping: 3).replacingOccurrences(of: "  awaitingPayment:\n", with: "  awaitingPayment:\n    states:\n      paying:\n")
        let machine = try files.file("between.yaml", text)
        let run = try Smrun.run(["validate", machine])
        #expect(
            run.lines == [
                "\(machine):16:4: error: did not find expected key while parsing a block mapping at line 12, column 3; line 16 is indented 3 spaces, where the keys of the mapping from line 12 are indented 2: indent it as the lines it belongs with [yaml-syntax]"
            ], "\(run.text)")
    }
}
