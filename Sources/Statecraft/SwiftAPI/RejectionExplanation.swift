/// What a ``StateTransitionError``'s message is made from, so that rejecting an input builds no
/// string: the message is built when it is read.
@usableFromInline
enum RejectionExplanation: Sendable {
    /// The message itself.
    case text(String)
    /// The engine's result for the input, which the machine's ``ResultExplainer`` words.
    case engine(ResultExplainer, TransitionResult)
    /// The input was sent from inside a run, and queued.
    case queued

    /// The message about `input`.
    func message(for input: SentInput) -> String {
        switch self {
        case .text(let text): text
        case .engine(let explainer, let result): explainer.message(for: result, inputName: input.name)
        case .queued: ResultWording.queued(input: input.name)
        }
    }
}
