/// The format of the input lines that `smrun run` reads (`--input-format`, docs/cli.md).
enum InputLineFormat {
    /// `INPUT` or `INPUT ARG`, `@wait DURATION`, comments and blank lines.
    case script
    /// JSON Lines: `{"input": NAME, "arg": VALUE}` or `{"wait": DURATION}`, and blank lines.
    case jsonl
}
