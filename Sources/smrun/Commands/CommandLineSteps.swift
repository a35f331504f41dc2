import Statecraft

/// `--send` and `--wait` interleave in the order they are given: the argument parser keeps
/// each option's values in order but not their order relative to each other, so it is read
/// back from the command line.
enum CommandLineSteps {
    /// One `--send INPUT` or `--wait DURATION`.
    enum Step: Equatable {
        case send(String)
        case wait(milliseconds: Int)
    }

    /// The sends and waits (already parsed and validated) in command-line order: the order of
    /// their options in `arguments` (`--send X`, `--send=X`), or every send then every wait if
    /// the command line cannot be matched against them.
    static func inOrder(sends: [String], waits: [String], arguments: [String]) -> [Step] {
        let durations = waits.map { (try? Delay(parsing: $0))?.milliseconds ?? 0 }
        var order: [Bool] = []  // true: a send
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            for (option, isSend) in [("--send", true), ("--wait", false)] {
                if argument == option {
                    order.append(isSend)
                    index += 1  // its value
                } else if argument.hasPrefix(option + "=") {
                    order.append(isSend)
                }
            }
            index += 1
        }
        guard order.filter({ $0 }).count == sends.count, order.filter({ !$0 }).count == waits.count else {
            return sends.map { .send($0) } + durations.map { .wait(milliseconds: $0) }
        }
        var nextSend = 0
        var nextWait = 0
        return order.map { isSend in
            if isSend {
                nextSend += 1
                return .send(sends[nextSend - 1])
            }
            nextWait += 1
            return .wait(milliseconds: durations[nextWait - 1])
        }
    }
}
