/// The input names TAB offers in `smrun repl`, updated before each line is read (libedit's
/// completion callback cannot reach the session, which is not a class).
final class ReplCompletionSource {
    var inputs: [(name: String, takesArgument: Bool)] = []

    func complete(_ typed: String) -> SessionCompletion {
        SessionCompletion(line: typed, inputs: inputs)
    }
}
