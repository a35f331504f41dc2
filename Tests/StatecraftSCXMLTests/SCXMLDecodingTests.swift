import Foundation
import Statecraft
import StatecraftSCXML
import Testing

/// What each SCXML element and attribute becomes in the definition model, and the error each
/// unsupported one is (docs/scxml.md).
@Suite struct SCXMLDecodingTests {
    private func load(_ body: String, attributes: String = "") -> LoadResult {
        let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" xmlns:sc=\"https://statecraft.dev/scxml\" version=\"1.0\" \(attributes)>\n\(body)\n</scxml>\n"
        return SCXMLFile.load(bytes: Array(text.utf8), defaultName: "doc")
    }

    private func errors(_ body: String, attributes: String = "") -> [String] {
        load(body, attributes: attributes).diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    @Test func statesNestAndKeepTheirOptions() throws {
        let loaded = load(
            """
            <state id="a" initial="a2">
              <state id="a1"/>
              <state id="a2"/>
              <history id="h" type="deep"><transition target="a1"/></history>
            </state>
            <parallel id="p" sc:description="two at once">
              <state id="r1"/><state id="r2"/>
            </parallel>
            <final id="end"/>
            """, attributes: "name=\"tree\" initial=\"p\"")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let definition = try #require(loaded.definition)
        #expect(definition.name == "tree")
        #expect(definition.initial.name == "p")
        #expect(definition.onUnhandled == .ignore)
        let a = definition.states[0]
        #expect(a.children.map(\.name.name) == ["a1", "a2", "h"])
        #expect(a.initial.map(\.name) == ["a2"])
        #expect(a.children[2].history == .deep && a.children[2].historyDefault.map(\.name) == ["a1"])
        #expect(definition.states[1].isParallel && definition.states[1].description == "two at once")
        #expect(definition.states[2].isFinal)
        #expect(loaded.machine != nil)
    }

    @Test func anInitialElementAndTheFirstChildDefault() throws {
        let definition = try #require(
            load("<state id=\"a\"><initial><transition target=\"a2\"/></initial><state id=\"a1\"/><state id=\"a2\"/></state>").definition)
        #expect(definition.initial.name == "a")
        #expect(definition.states[0].initial.map(\.name) == ["a2"])
    }

    @Test func transitionsKeepEventCondTargetAndType() throws {
        let loaded = load(
            """
            <datamodel><data id="n" expr="0"/></datamodel>
            <state id="a">
              <transition event="go stop.*" cond="n &gt; 0 &amp;&amp; In(b)" target="b c" type="internal"/>
              <transition cond="In('a')" target="b"/>
            </state>
            <parallel id="p"><state id="b"/><state id="c"/></parallel>
            """)
        let definition = try #require(loaded.definition)
        let transitions = definition.transitions
        #expect(transitions.map(\.input.name) == ["go", "stop.*", ""])
        #expect(transitions[0].guardExpression?.text == "n > 0 && in(b)")
        #expect(transitions[0].targets.map(\.name) == ["b", "c"] && transitions[0].isInternal)
        #expect(transitions[2].isEventless && transitions[2].guardExpression?.text == "in(a)")
        #expect(transitions[0].position == SourcePosition(line: 4, column: 0))
    }

    @Test func aDescriptorMatchesTheEventsThatExtendIt() throws {
        let definition = try #require(
            load(
                """
                <state id="a">
                  <transition event="error" target="b"/>
                  <transition event="ping" target="b"/>
                  <onentry><raise event="error.io"/></onentry>
                </state>
                <state id="b"/>
                """
            ).definition)
        // `error` also names error.io, which the machine raises: SCXML's prefix match.
        #expect(definition.transitions.map(\.input.name) == ["error.*", "ping"])
        #expect(definition.inputs?.map(\.name.name) == ["error", "ping", "error.io"])
    }

    @Test func executableContentBecomesNamedEffects() throws {
        let loaded = load(
            """
            <datamodel><data id="n" expr="1"/><data id="label">"x"</data><data id="i" expr="0"/></datamodel>
            <state id="a">
              <onentry><assign location="n" expr="n + 1"/><raise event="tick"/><assign location="n" expr="n * 2"/></onentry>
              <onentry><log label="n" expr="n"/></onentry>
              <transition event="go" target="a">
                <sc:effect name="notify"/>
                <send event="tick" target="#_internal"/>
                <send event="tock"/>
                <if cond="n &gt; 2"><assign location="n" expr="0"/><elseif cond="n == 2"/><log label="two"/><else/><raise event="tick"/></if>
                <foreach array="3" item="i"><assign location="n" expr="n + i"/></foreach>
              </transition>
              <transition event="tick tock"/>
            </state>
            """)
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
        let definition = try #require(loaded.definition)
        #expect(definition.context.map(\.initialValue) == [.int(1), .string("x"), .int(0)])
        #expect(definition.states[0].entry.map(\.name) == ["a.onentry", "a.onentry.2"])
        #expect(definition.transitions[0].effects.map(\.name) == ["notify", "a.transition.1"])
        let bodies = Dictionary(uniqueKeysWithValues: definition.effects.map { ($0.name.name, $0.steps) })
        guard case .assign(let first)? = bodies["a.onentry"]?.first, case .send(let raised)? = bodies["a.onentry"]?.dropFirst().first,
            case .assign(let last)? = bodies["a.onentry"]?.last
        else {
            Issue.record("a.onentry: \(String(describing: bodies["a.onentry"]))")
            return
        }
        #expect(first.expression.text == "n + 1" && raised.input.name == "tick" && raised.queue == .internal && last.expression.text == "n * 2")
        guard case .log(let log)? = bodies["a.onentry.2"]?.first else {
            Issue.record("no log")
            return
        }
        #expect(log.label == "n" && log.expression?.text == "n")
        let transition = try #require(bodies["a.transition.1"])
        #expect(transition.count == 4)
        guard case .send(let internalSend) = transition[0], case .send(let externalSend) = transition[1],
            case .conditional(let conditional) = transition[2], case .forEach(let loop) = transition[3]
        else {
            Issue.record("a.transition.1: \(transition)")
            return
        }
        #expect(internalSend.queue == .internal && externalSend.queue == .external)
        #expect(conditional.branches.map(\.condition.text) == ["n > 2", "n == 2"] && conditional.otherwise.count == 1)
        #expect(loop.items.text == "3" && loop.item.name == "i" && loop.steps.count == 1)
        #expect(bodies["notify"]?.isEmpty == true, "an empty <sc:effect> declares a hook")
    }

    @Test func aNamedEffectWrittenAgainMustSayTheSame() throws {
        let bump = "<assign location=\"n\" expr=\"n + 1\"/><send event=\"tick\" delay=\"1s\" idlocation=\"sent\"/>"
        let document = """
            <datamodel><data id="n" expr="0"/><data id="sent" expr="''"/></datamodel>
            <state id="a">
              <transition event="go" target="b"><sc:effect name="bump">\(bump)</sc:effect></transition>
              <transition event="tick" target="b"><sc:effect name="bump">
                \(bump)
              </sc:effect></transition>
            </state>
            <state id="b">
              <transition event="go" target="a"><sc:effect name="reset"><assign location="n" expr="0"/></sc:effect></transition>
              <transition event="tick" target="a"><sc:effect name="reset"><assign expr="0" location="n"/></sc:effect></transition>
            </state>
            """
        let loaded = load(document)
        // Written alike, whatever the layout: one body, though each `idlocation` makes up an id
        // of its own; written otherwise, with the same steps: one body too.
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
        let definition = try #require(loaded.definition)
        #expect(definition.effects.map(\.name.name).sorted() == ["bump", "reset"])
        #expect(definition.transitions.map { $0.effects.map(\.name) } == [["bump"], ["bump"], ["reset"], ["reset"]])
        let different = errors(document.replacingOccurrences(of: "<assign expr=\"0\"", with: "<assign expr=\"1\""))
        #expect(different == ["11: error: effect 'reset' is given two different bodies [duplicate-effect]"])
    }

    @Test func statecraftAdditionsDeclareWhatSCXMLCannot() throws {
        let loaded = load(
            """
            <sc:input name="pay" arg="int" description="cents"/>
            <sc:input name="secret" internal="true"/>
            <state id="a" sc:description="waiting">
              <transition event="pay" sc:reject="closed" cond="arg &lt; 0"/>
              <transition event="pay" target="a" sc:description="takes it">
                <send event="pay" target="#_internal"><content expr="arg - 1"/></send>
              </transition>
            </state>
            """, attributes: "sc:on-unhandled=\"reject\" sc:description=\"a till\"")
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
        let definition = try #require(loaded.definition)
        #expect(definition.onUnhandled == .reject && definition.description == "a till")
        #expect(definition.inputs?.map(\.argumentType) == [.int, nil])
        #expect(definition.inputs?[1].isInternal == true)
        #expect(definition.transitions[0].refusal == "closed")
        #expect(definition.transitions[1].description == "takes it")
        guard case .send(let send)? = definition.effects.first?.steps.first else {
            Issue.record("no send")
            return
        }
        #expect(send.argument?.text == "arg - 1")
    }

    /// A `<send>` to another target keeps it: a document that raises errors loads with a
    /// warning (the send raises `error.execution` when it runs), one that rejects does not load.
    @Test func aSendToAnotherTargetKeepsItsTarget() throws {
        let body = "<state id=\"a\"><transition event=\"e\"><send event=\"x\" target=\"http://elsewhere\"/></transition></state>"
        let raising = load(body)
        let definition = try #require(raising.definition)
        #expect(definition.onError == .raise)
        guard case .send(let send)? = definition.effects.first?.steps.first else {
            Issue.record("no send in \(definition.effects)")
            return
        }
        #expect(send.target == "http://elsewhere")
        #expect(raising.machine != nil)
        #expect(
            raising.diagnostics.map(\.description) == [
                "2: warning: effect 'a.transition.1' sends 'x' to target 'http://elsewhere': a machine sends only to itself (no target); it raises error.execution when it runs (on_error: raise) [unsupported]"
            ])
        let rejecting = load(body, attributes: "sc:on-error=\"reject\"")
        #expect(rejecting.definition?.onError == .reject)
        #expect(
            errors(body, attributes: "sc:on-error=\"reject\"") == [
                "2: error: effect 'a.transition.1' sends 'x' to target 'http://elsewhere': a machine sends only to itself (no target) [unsupported]"
            ])
    }

    @Test func aDataListIsAContextList() throws {
        let definition = try #require(
            load("<datamodel><data id=\"odd\">\n  [1, 3, 5]\n</data><data id=\"words\" expr=\"['a, b', &quot;c&quot;]\"/><data id=\"none\" expr=\"[]\"/></datamodel><state id=\"a\"/>").definition)
        #expect(definition.context.map(\.initialValue) == [
            .list([.int(1), .int(3), .int(5)]), .list([.string("a, b"), .string("c")]), .list([]),
        ])
    }

    @Test func aForEachDeclaresItsUndeclaredItemAndIndex() throws {
        let loaded = load(
            """
            <datamodel><data id="items">[4, 5]</data><data id="seen"/></datamodel>
            <state id="a"><onentry><foreach array="items" item="seen" index="where"/><foreach array="items" item="other"/></onentry></state>
            """)
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
        let definition = try #require(loaded.definition)
        #expect(definition.context.map(\.name.name) == ["items", "seen", "where", "other"], "declared once each, after the <data>")
        #expect(definition.context.dropFirst().allSatisfy { $0.initialValue == .null })
        let machine = try #require(loaded.machine)
        #expect(machine.variableTypes.map(\.description) == ["[int]", "int?", "int?", "int?"])
    }

    @Test func paramsAreTheEventsDataFields() throws {
        let loaded = load(
            """
            <datamodel><data id="n" expr="3"/><data id="got" expr="0"/></datamodel>
            <state id="a">
              <onentry><send event="e" delay="1s"><param name="amount" expr="n * 2"/><param name="copy" location="n"/></send></onentry>
              <transition event="e" target="b"><assign location="got" expr="_event.data.amount + _event.data.copy"/></transition>
            </state>
            <final id="b"/>
            """)
        #expect(!loaded.diagnostics.hasErrors, "\(loaded.diagnostics)")
        let definition = try #require(loaded.definition)
        guard case .send(let send) = definition.effects[0].steps[0] else {
            Issue.record("not a send: \(definition.effects[0].steps)")
            return
        }
        #expect(send.data.map(\.name.name) == ["amount", "copy"])
        #expect(send.data.map(\.expression.text) == ["n * 2", "n"])
        guard case .assign(let assignment) = definition.effects[1].steps[0] else { return }
        #expect(assignment.expression.text == "arg.amount + arg.copy")
    }

    @Test func theEventsNameIsInput() throws {
        let definition = try #require(load("<state id=\"a\"><transition event=\"e\" cond=\"_event.name == 'e'\"/></state>").definition)
        #expect(definition.transitions[0].guardExpression?.text == "input() == 'e'")
    }

    @Test(arguments: [
        ("<state id=\"a\"><invoke src=\"x\"/></state>", "2: error: <invoke> (running another service) is not supported [unsupported]"),
        ("<script>x = 1</script><state id=\"a\"/>", "2: error: <script> is not supported: Statecraft runs no scripts [unsupported]"),
        ("<final id=\"a\"><donedata/></final>", "2: error: <donedata> is not supported: done events carry no data [unsupported]"),
        ("<state id=\"a\"><transition event=\"e\"><send event=\"x\" delay=\"1s\" delayexpr=\"'2s'\"/></transition></state>",
            "2: error: <send> has a delay or a delayexpr, not both [invalid-value]"),
        ("<state id=\"a\"><transition event=\"e\"><cancel sendid=\"x\" sendidexpr=\"'x'\"/></transition></state>",
            "2: error: <cancel> has a sendid or a sendidexpr, not both [invalid-value]"),
        ("<datamodel><data id=\"list\" expr=\"[1, 'two']\"/></datamodel><state id=\"a\"/>",
            "2: error: <data id=\"list\">'s list at index 1: a list's items are of one type, but it mixes int and string [invalid-value]"),
        ("<datamodel><data id=\"list\">[1, x]</data></datamodel><state id=\"a\"/>",
            "2: error: <data id=\"list\">'s list has 'x' at index 1, which is not a constant: an int, a finite double, true, false or a quoted string [invalid-value]"),
        ("<state id=\"a\"><transition event=\"e\" cond=\"_event.type == 'e'\"/></state>",
            "2: error: '_event.type == 'e'': of SCXML's event variable only _event.data (the event's value, arg), its fields (_event.data.NAME, arg.NAME) and _event.name (input()) are supported [unsupported]"),
        ("<state id=\"a\"><transition event=\"e\"><send event=\"x\"><param expr=\"1\"/></send></transition></state>",
            "2: error: <param> needs a name [missing-key]"),
        ("<state id=\"a\"><transition event=\"e\"><send event=\"x\"><param name=\"p\"/></send></transition></state>",
            "2: error: <param name=\"p\"> needs an expr or a location [missing-key]"),
        ("<state id=\"a\"><transition event=\"e\"><send event=\"x\"><content expr=\"1\"/><param name=\"p\" expr=\"1\"/></send></transition></state>",
            "2: error: a <send> gives its event's data with <content> or with <param>, not both [invalid-value]"),
        ("<state id=\"a\"><onentry><script/></onentry></state>", "2: error: <script> is not supported: Statecraft runs no scripts [unsupported]"),
        ("<state id=\"a\"><stat id=\"b\"/></state>", "2: error: unknown element <stat> (did you mean 'state'?) in <state>, which holds <onentry>, <onexit>, <transition>, <initial>, <state>, <parallel>, <final>, <history>, <datamodel> [unknown-key]"),
        ("<state id=\"a\" intial=\"b\"/>", "2: error: <state> has no attribute 'intial' (did you mean 'initial'?); its attributes are id, initial [unknown-key]"),
        ("<datamodel><data id=\"d\" src=\"x.json\"/></datamodel><state id=\"a\"/>", "2: error: <data src> is not supported: a value is written in expr [unsupported]"),
        ("<state id=\"a\">waiting</state>", "2: error: <state> holds no text [invalid-value]"),
        ("<state id=\"a\"><other:x xmlns:other=\"urn:x\"/></state>", "2: error: <x> of namespace urn:x is not supported: Statecraft reads SCXML's elements and its own [unsupported]"),
    ])
    func unsupportedAndUnknownElementsAreErrors(_ body: String, _ expected: String) {
        #expect(errors(body).first == expected, "\(errors(body))")
    }

    @Test(arguments: ["ecmascript", "xpath"])
    func otherDatamodelsAreErrors(_ datamodel: String) {
        #expect(errors("<state id=\"a\"/>", attributes: "datamodel=\"\(datamodel)\"").first?.hasPrefix("1: error: datamodel=\"\(datamodel)\" is not supported") == true)
    }

    @Test func theNullDatamodelHasNoData() {
        let found = errors(
            "<datamodel><data id=\"d\"/></datamodel><state id=\"a\"><onentry><assign location=\"d\" expr=\"1\"/></onentry></state>",
            attributes: "datamodel=\"null\"")
        #expect(found.count >= 2 && found.allSatisfy { $0.hasSuffix("[unsupported]") }, "\(found)")
        #expect(!load("<state id=\"a\"><transition cond=\"In(a)\" event=\"e\"/></state>", attributes: "datamodel=\"null\"").diagnostics.hasErrors)
    }

    @Test func aStateWithoutAnIdGetsOne() throws {
        let definition = try #require(load("<state><transition event=\"e\" target=\"_state2\"/></state><state id=\"_state1\"/><state/>").definition)
        #expect(definition.states.map(\.name.name) == ["_state2", "_state1", "_state3"])
    }

    /// The document is decoded as libxml2 streams it: the inside of an element the decoder
    /// refuses is read past, its text still judged and its nodes still counted, and the
    /// elements after it are decoded.
    @Test func whatIsRefusedIsReadPastAndStillChecked() throws {
        let body = "<state id=\"a\"><invoke><finalize>text<raise event=\"x\"/></finalize></invoke></state>\n<state id=\"b\"><transition event=\"e\" target=\"a\"/></state>"
        let loaded = load(body)
        #expect(
            loaded.diagnostics.map(\.description) == [
                "2: error: <finalize> holds no text [invalid-value]", "2: error: <invoke> (running another service) is not supported [unsupported]",
            ])
        #expect(loaded.definition?.states.map(\.name.name) == ["a", "b"])
        #expect(loaded.definition?.transitions.map(\.input.name) == ["e"])
        let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"><invoke>" + String(repeating: "<x/>", count: 100)
            + "</invoke></state></scxml>"
        let bounded = SCXMLFile.load(bytes: Array(text.utf8), defaultName: "doc", limits: LoadLimits(maximumNodes: 50))
        #expect(bounded.diagnostics.map(\.code) == [.limitExceeded], "\(bounded.diagnostics)")
    }

    /// An `<initial>` holds one `<transition>`: of several, none is decoded, and only that is said.
    @Test func anInitialWithTwoTransitionsIsOneError() {
        let found = errors(
            "<state id=\"a\">\n<initial>\n<transition target=\"b\" event=\"x\"/>\n<transition target=\"b\"/>\n</initial>\n<state id=\"b\"/>\n</state>")
        #expect(found == ["3: error: an <initial> holds exactly one <transition>, not 2 [invalid-value]"], "\(found)")
    }

    @Test func malformedXMLHasItsLineAndColumn() throws {
        let found = errors("<state id=\"a\">\n</stat>")
        #expect(found.count == 1 && found[0].hasPrefix("3:") && found[0].contains("not well-formed XML") && found[0].hasSuffix("[xml-syntax]"), "\(found)")
    }

    /// An attribute value's references are replaced, `&` among them (`&amp;`, `&#38;`), and a
    /// reference written out as text (`&#38;#38;`) stays text.
    @Test func attributeValuesHaveTheirReferencesReplaced() throws {
        let body = #"<state id="a"><transition event="e" cond="s == &quot;&amp;&#38;&lt;&#x41;&#38;#38;&quot;"/></state>"#
        let definition = try #require(load(body).definition)
        #expect(definition.transitions[0].guardExpression?.text == #"s == "&&<A&#38;""#)
    }

    /// Text is one node however the parser hands it over (pieces, references, CDATA), and one
    /// that a comment splits is two: the node bound counts them as libxml2's tree would.
    @Test func textIsJoinedAndCountedAsTheTreeHoldsIt() throws {
        let data = "<datamodel><data id=\"s\">\"a&amp;<![CDATA[b]]>c\"</data><data id=\"t\">1<!-- x -->2</data></datamodel>"
        let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\(data)<state id=\"a\"/></scxml>"
        let loaded = SCXMLFile.load(bytes: Array(text.utf8), defaultName: "doc")
        let definition = try #require(loaded.definition)
        #expect(definition.context.map(\.initialValue) == [.string("a&bc"), .int(12)])
        // 5 elements, 3 attributes and 3 texts.
        var limits = LoadLimits.default
        limits.maximumNodes = 11
        #expect(SCXMLFile.load(bytes: Array(text.utf8), defaultName: "doc", limits: limits).diagnostics.isEmpty)
        limits.maximumNodes = 10
        let refusal = SCXMLFile.load(bytes: Array(text.utf8), defaultName: "doc", limits: limits).diagnostics
        let refused = refusal.map(\.description)
        #expect(refused.count == 1 && refused[0].hasSuffix("more than 10 XML nodes [limit-exceeded]"), "\(refused)")
        #expect(refusal.map(\.limit) == [.nodes])
    }

    /// A bound is reported at the node that crosses it, and before a syntax error further on,
    /// although libxml2 parses ahead of the decoder.
    @Test func aBoundIsReportedWhereTheDocumentCrossesIt() {
        var limits = LoadLimits.default
        limits.maximumNodes = 10
        // The root and its version are 2 nodes, each state and its id 2 more: the fifth state,
        // on line 6, is the 11th node.
        for broken in ["", "<state id=\"bad\"<\n"] {
            let states = (1...40).map { "<state id=\"s\($0)\"/>\n" }
            let body = states[..<7].joined() + broken + states[7...].joined()
            let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">\n\(body)\n</scxml>\n"
            let found = SCXMLFile.load(bytes: Array(text.utf8), defaultName: "doc", limits: limits).diagnostics.map(\.description)
            #expect(found == ["6: error: more than 10 XML nodes [limit-exceeded]"], "\(found)")
        }
    }

    /// A text node that crosses the bound is reported where its text starts, not at the tag
    /// that ends it.
    @Test func aTextOverTheBoundIsReportedWhereItStarts() {
        var limits = LoadLimits.default
        // The root, its version, the state and its id are 4 nodes; the text, from line 4, the 5th.
        limits.maximumNodes = 4
        let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">\n<state id=\"a\">\n\n  some text\n\n\n</state>\n</scxml>\n"
        let found = SCXMLFile.load(bytes: Array(text.utf8), defaultName: "doc", limits: limits).diagnostics.map(\.description)
        #expect(found == ["4: error: more than 4 XML nodes [limit-exceeded]"], "\(found)")
    }

    /// Lines past 65,535 are given as they are (libxml2's tree kept an element's line in 16 bits).
    @Test func linesPastSixteenBitsAreExact() {
        let found = errors(String(repeating: "\n", count: 70_000) + "<state id=\"a\"><bogus/></state>")
        #expect(found.count == 1 && found[0].hasPrefix("70002: error: unknown element <bogus>"), "\(found)")
    }

    /// A text longer than libxml2's bound on a text node is refused as over the bound.
    @Test func textOverLibXML2sBoundIsRefused() {
        var limits = LoadLimits.default
        limits.maximumBytes = 64 << 20
        let text = "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"><state id=\"a\"/>" + String(repeating: " ", count: 10_000_001) + "</scxml>"
        let found = SCXMLFile.load(bytes: Array(text.utf8), defaultName: "doc", limits: limits).diagnostics.map(\.description)
        #expect(
            found.count == 1 && found[0].hasSuffix("a name, value or text longer than libxml2's bound of 10,000,000 bytes [limit-exceeded]"),
            "\(found)")
        // A bound of libxml2's own, which no ``LoadLimits`` field raises.
        #expect(SCXMLFile.load(bytes: Array(text.utf8), defaultName: "doc", limits: limits).diagnostics.map(\.limit) == [nil])
    }

    @Test(arguments: [
        ("In(a)", "in(a)"), ("In('a')", "in(a)"), ("In( \"a.b\" )", "in(a.b)"), ("!In(a) || x", "!in(a) || x"),
        ("\"In(a)\" == s", "\"In(a)\" == s"), ("Inner(a)", "Inner(a)"), ("xIn(a)", "xIn(a)"),
    ])
    func inIsTheExpressionLanguagesIn(_ written: String, _ read: String) throws {
        let body = "<state id=\"a\"><transition event=\"e\" cond=\"\(written.replacingOccurrences(of: "\"", with: "&quot;"))\"/></state>"
        let definition = try #require(load(body).definition)
        #expect(definition.transitions[0].guardExpression?.text == read)
    }
}
