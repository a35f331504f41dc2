import ArgumentParser

/// How `smrun run` prints results.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// One short line per result, for people.
    case text
    /// JSON Lines, one object per result (docs/cli.md), for tools.
    case json
}
