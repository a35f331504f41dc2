import Foundation
import Testing

/// Rules of SCXML's algorithm and executable content that the W3C conformance tests check,
/// each written here as a small document of our own.
@Suite struct SCXMLConformanceTests {
    private func run(_ body: String, attributes: String = "", _ arguments: [String]) throws -> SmrunOutput {
        let files = try TemporaryFiles()
        let file = try files.file(
            "doc.scxml",
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" \(attributes)>\n\(body)\n</scxml>\n")
        return try Smrun.run([file] + arguments)
    }

    /// A state is in the configuration while its own `<onentry>` runs, and no longer while its
    /// `<onexit>` runs; its parent's `<onentry>` runs before it is entered.
    @Test func inSeesStatesJoinAndLeaveTheConfigurationOneByOne() throws {
        let output = try run(
            """
            <state id="outer" initial="inner">
              <onentry><if cond="In(inner)"><raise event="early"/></if></onentry>
              <onexit><if cond="In(inner)"><raise event="late"/></if></onexit>
              <state id="inner">
                <onentry><if cond="In(inner)"><raise event="entered"/></if></onentry>
                <onexit><if cond="In(inner)"><raise event="exiting"/></if></onexit>
                <transition event="entered" target="seen"/>
              </state>
            </state>
            <state id="seen">
              <transition event="exiting" target="done"/>
              <transition event="*" target="wrong"/>
            </state>
            <final id="done"/>
            <final id="wrong"/>
            """, [])
        #expect(output.lines.last?.hasSuffix("seen -> done") == true, "\(output.text)")
    }
}
