import Statecraft
import Testing

@testable import StatecraftYAML

/// Effect bodies in machine files (docs/machine-files.md#effects): the list of steps, the one-step
/// mapping, and the older `{ set, send }` form, decoded into ``EffectDefinition/Step``s.
struct EffectStepDecodingTests {
    /// The effects of a one-state machine whose `effects` section is `effects`.
    func effects(_ effects: String, context: String = "{ n: 0, s: \"\" }") throws -> [EffectDefinition] {
        let loaded = YAMLFile.load(
            bytes: Array(
                """
                initial: a
                context: \(context)
                inputs: { go: int, done: }
                states: [a]
                effects:
                \(effects)
                transitions:
                  - go | a | e
                  - done | a
                """.utf8), defaultName: "test")
        #expect(loaded.diagnostics.filter { $0.severity == .error }.isEmpty, "\(loaded.diagnostics)")
        return try #require(loaded.definition).effects
    }

    /// `code@line:column` for each error of a machine whose effect `e` has body `body`.
    func problems(_ body: String) -> [String] {
        YAMLFile.load(
            bytes: Array(
                """
                initial: a
                context: { n: 0, s: "" }
                inputs: { go: int, done: }
                states: [a]
                effects:
                  e:
                \(body)
                transitions:
                  - go | a | e
                  - done | a
                """.utf8), defaultName: "test"
        ).diagnostics.filter { $0.severity == .error }.map { "\($0.code.rawValue)@\($0.position.map(\.description) ?? "file")" }
    }

    /// A step, in one word per kind, nested bodies in brackets.
    func outline(_ steps: [EffectDefinition.Step]) -> String {
        steps.map { step in
            switch step {
            case .assign(let assignment): "set \(assignment.variable.name)=\(assignment.expression.text)"
            case .send(let send):
                "send \(send.input.name)\(send.argument.map { "(\($0.text))" } ?? "") \(send.queue)"
                    + (send.delay.map { " after \($0.text)" } ?? "") + (send.delayExpression.map { " after (\($0.text))" } ?? "")
                    + (send.id.map { " as \($0.name)" } ?? "")
            case .cancel(let id): "cancel \(id.name)"
            case .cancelEvaluated(let id): "cancel (\(id.text))"
            case .log(let log): "log \(log.label ?? "-") \(log.expression?.text ?? "-")"
            case .conditional(let conditional):
                conditional.branches.map { "if \($0.condition.text) [\(outline($0.steps))]" }.joined(separator: " ")
                    + " else [\(outline(conditional.otherwise))]"
            case .forEach(let loop): "foreach \(loop.items.text) \(loop.item.name) \(loop.index?.name ?? "-") [\(outline(loop.steps))]"
            }
        }.joined(separator: "; ")
    }

    @Test func aMappingAssignsThenCancelsThenSendsDelayedOrNot() throws {
        let effects = try effects("  e: { send: [done, { input: done, delay: 1.5s, id: t }], cancel: [t], set: { n: arg } }")
        #expect(outline(effects[0].steps) == "set n=arg; cancel t; send done internal; send done internal after 1.5s as t")
    }

    @Test func computedDelaysAndCancelsReadAsExpressions() throws {
        let effects = try effects("  e: [{ send: { input: done, delay_expr: \"n * 2\", id: t } }, { cancel_expr: \"s\" }]")
        #expect(outline(effects[0].steps) == "send done internal after (n * 2) as t; cancel (s)")
    }

    @Test func theOlderMappingFormAssignsThenSends() throws {
        let effects = try effects("  e: { send: done, set: { n: arg, s: '\"x\"' } }")
        #expect(outline(effects[0].steps) == "set n=arg; set s=\"x\"; send done internal")
    }

    @Test func aListRunsItsStepsInWrittenOrder() throws {
        let effects = try effects(
            """
              e:
                - send: done
                - set: { n: arg }
                - log: counted
                - send: { input: done, queue: external }
            """)
        #expect(outline(effects[0].steps) == "send done internal; set n=arg; log counted -; send done external")
    }

    @Test func ifElifElseStepsMakeOneConditional() throws {
        let effects = try effects(
            """
              e:
                - if: arg > 10
                  do: { set: { n: 2 } }
                - elif: arg > 5
                  do: [{ set: { n: 1 } }, { log: medium }]
                - else: { set: { n: 0 } }
                - if: n == 0
                  do: { log: zero }
                  else: { log: other }
                - if: n == 1
            """)
        #expect(
            outline(effects[0].steps)
                == "if arg > 10 [set n=2] if arg > 5 [set n=1; log medium -] else [set n=0]; if n == 0 [log zero -] else [log other -]; if n == 1 [] else []"
        )
    }

    @Test func aSingleIfMappingIsABody() throws {
        let effects = try effects("  e: { if: arg > 0, do: { set: { n: arg } }, else: { set: { n: 0 } } }")
        #expect(outline(effects[0].steps) == "if arg > 0 [set n=arg] else [set n=0]")
    }

    @Test func logTakesALabelOrALabelAndAnExpression() throws {
        let effects = try effects(
            """
              e:
                - log: plain text
                - log: { label: n, expr: n + 1 }
                - log: { expr: s }
            """)
        #expect(outline(effects[0].steps) == "log plain text -; log n n + 1; log - s")
    }

    @Test func foreachNamesItsItemsItemIndexAndBody() throws {
        let effects = try effects(
            """
              e:
                foreach: { array: s, item: c, index: n, do: { set: { s: s + c } } }
            """, context: "{ n: 0, s: \"\", c: \"\" }")
        #expect(outline(effects[0].steps) == "foreach s c n [set s=s + c]")
    }

    @Test func eachBadStepIsReportedWhereItIsWritten() {
        #expect(problems("    - elif: n > 0\n      do: []") == ["invalid-value@7:7"])
        #expect(problems("    - else: []") == ["invalid-value@7:7"])
        #expect(problems("    - if: n > 0\n      else: []\n    - else: []") == ["invalid-value@9:7"], "an else ends its if")
        #expect(problems("    - log: x\n      send: done") == ["invalid-value@7:7"], "send comes first among the kinds")
        #expect(problems("    - set: { n: 1 }\n      log: x") == ["invalid-value@8:7"], "the key after the step's kind is the one reported")
        #expect(problems("    - else: []\n      if: n > 0\n      do: []") == [], "an if's keys in any order")
        #expect(problems("    - do: []") == ["invalid-value@7:7"])
        #expect(problems("    - set: { n: 1 }\n      do: []") == ["invalid-value@8:7"])
        #expect(problems("    - if: n > 0\n      then: []") == ["unknown-key@8:7"])
        #expect(problems("    - {}") == ["missing-key@7:7"])
        #expect(problems("    - log: []") == ["wrong-kind@7:12"])
        #expect(problems("    - log: { label: x, value: n }") == ["unknown-key@7:24"])
        #expect(problems("    - foreach: { array: 3 }") == ["missing-key@7:16"])
        #expect(problems("    - foreach: { array: 3, item: n, step: 2 }") == ["unknown-key@7:37"])
        #expect(problems("    - send: { input: done, queue: soon }") == ["invalid-value@7:35"])
        #expect(problems("    - send: done\n    - 3") == ["wrong-kind@8:7"])
        #expect(problems("    3") == ["wrong-kind@7:5"])
    }
}
