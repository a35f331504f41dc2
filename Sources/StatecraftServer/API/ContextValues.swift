import SmrunCore
import Statecraft

/// The `context` of a create request, checked against the machine's declared variables: each
/// member must name one, with a value of its declared type (an int fits a double).
enum ContextValues {
    /// The context to start with, or why the request is refused.
    static func values(_ json: JSONValue, machine: CompiledMachine) -> Result<[Value], ContextProblem> {
        guard case .object(let members) = json else { return .failure(ContextProblem("'context' must be an object, got \(json.kind)")) }
        var values = machine.initialContext
        for member in members {
            guard let slot = machine.variableNames.firstIndex(of: member.key) else {
                let known = machine.variableNames.isEmpty ? "it declares none" : "it declares \(machine.variableNames.joined(separator: ", "))"
                return .failure(ContextProblem("context variable '\(JSONText.escapingControls(member.key))' is not declared by '\(machine.name)' (\(known))"))
            }
            let type = machine.variableTypes[slot]
            guard let value = value(member.value, type: type) else {
                return .failure(ContextProblem("context variable '\(member.key)' is \(type), got \(member.value == .null ? "null" : "\(member.value.kind) \(member.value.text)")"))
            }
            values[slot] = value
        }
        return .success(values)
    }

    private static func value(_ json: JSONValue, type: ExpressionType) -> Value? {
        if case .null = json { return type.isNullable || type.base == .null ? .null : nil }
        return scalar(json, type.base) ?? {
            guard case .array(let items) = json, type.base == .list, let element = type.element else { return nil }
            let values = items.compactMap { scalar($0, element) }
            return values.count == items.count ? .list(values) : nil
        }()
    }

    private static func scalar(_ json: JSONValue, _ type: ValueType) -> Value? {
        switch (json, type) {
        case (.number(let text), .int): Int(text).map(Value.int)
        case (.number(let text), .double): Double(text).map(Value.double)
        case (.bool(let flag), .bool): .bool(flag)
        case (.string(let text), .string): .string(text)
        default: nil
        }
    }
}

struct ContextProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
