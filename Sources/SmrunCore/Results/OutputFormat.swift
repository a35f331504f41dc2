/// How `smrun run` prints results.
@usableFromInline package enum OutputFormat: String, CaseIterable, Sendable {
    /// One short line per result, for people.
    case text
    /// JSON Lines, one object per result (docs/cli.md), for tools.
    case json
}
