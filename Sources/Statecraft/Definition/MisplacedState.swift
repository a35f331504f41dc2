/// A name that a machine file declares where a state's options go, not among its states: most
/// likely a state indented one level too deep (`paying:` under `awaitingPayment:` beside its
/// `entry` and `states`). The decoder reports the declaration; the compiler tells a reference
/// to the name where it is, once, rather than that it is undefined each time (issue 35).
package struct MisplacedState: Sendable, Hashable {
    /// The state whose options it is among.
    package var parent: String
    /// Where it is declared.
    package var position: SourcePosition

    package init(parent: String, position: SourcePosition) {
        self.parent = parent
        self.position = position
    }
}
