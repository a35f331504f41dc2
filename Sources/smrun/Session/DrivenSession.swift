/// What `smrun run` drives: a run over a script or over `--send`/`--wait` steps (``RunSession``).
protocol DrivenSession: WallClockSession, ~Copyable {
    /// Whether any input was rejected (exit status 1).
    var hadRejections: Bool { get }
    /// Runs every input line of `source`; returns how many lines were skipped as too long.
    mutating func runLines(from source: ScriptSource, format: InputLineFormat, maximumLineBytes: Int) throws -> Int
    /// Sends one `--send` value.
    mutating func send(_ input: String)
    /// Moves the machine's clock forward (`--wait`).
    mutating func wait(milliseconds: Int)
    /// Flushes the output and saves the state file.
    mutating func finish()
}

extension RunSession: DrivenSession {}
