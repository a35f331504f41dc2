extension Expression {
    /// The context variables the expression reads, each once, in the order it first reads them,
    /// and whether it reads `arg`: what a message about a false guard shows the values of.
    var valuesRead: (variables: [String], readsArgument: Bool) {
        var variables: [String] = []
        var readsArgument = false
        collectReads(into: &variables, &readsArgument)
        return (variables, readsArgument)
    }

    private func collectReads(into variables: inout [String], _ readsArgument: inout Bool) {
        switch self {
        case .literal, .inState: break
        case .variable(let name, _): if !variables.contains(name) { variables.append(name) }
        case .argument: readsArgument = true
        case .unary(_, let operand, _): operand.collectReads(into: &variables, &readsArgument)
        case .binary(_, let lhs, let rhs, _), .index(let lhs, let rhs, _):
            lhs.collectReads(into: &variables, &readsArgument)
            rhs.collectReads(into: &variables, &readsArgument)
        case .field(let record, _, _): record.collectReads(into: &variables, &readsArgument)
        case .call(_, let arguments, _), .list(let arguments, _):
            for argument in arguments { argument.collectReads(into: &variables, &readsArgument) }
        }
    }
}
