import Foundation

/// Typed reads of `JSONSerialization` values, which bridge JSON booleans to numbers: an `Int`
/// here is never a JSON `true`, and a `Bool` is never a JSON `1`.
enum JSONValue {
    static func int(_ value: Any?) -> Int? { value is Bool ? nil : value as? Int }
    static func bool(_ value: Any?) -> Bool? { value is Bool ? value as? Bool : nil }
    static func double(_ value: Any?) -> Double? { value is Bool ? nil : value as? Double }
}
