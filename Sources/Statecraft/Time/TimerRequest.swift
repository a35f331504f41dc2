/// What an effect body asks of the timers, applied in order once its transition commits.
package enum TimerRequest: Sendable {
    /// `send` with a `delay`: schedule `input` to be processed `delay` ms from now.
    case send(input: Int, argument: Value, sentBy: Int, delay: Int, timer: Int)
    /// `cancel: NAME`: drop every pending send with that id.
    case cancel(timer: Int)
}
