import Foundation

/// Typed reads of `JSONSerialization` values, which come as `NSNumber` for every JSON number and
/// boolean and bridge loosely (`1 as? Bool`, `true as? Int`): here an `Int` is only ever a JSON
/// integer, a `Bool` only ever `true` or `false`.
enum JSONValue {
    /// The `NSNumber`'s Objective-C type: `c` for a JSON boolean, `d` for a number with a fraction.
    private static func numberType(_ value: Any?) -> (NSNumber, String)? {
        guard let number = value as? NSNumber else { return nil }
        return (number, String(cString: number.objCType))
    }

    static func int(_ value: Any?) -> Int? {
        guard let (number, type) = numberType(value), !["c", "d", "f"].contains(type) else { return nil }
        return number.intValue
    }

    static func double(_ value: Any?) -> Double? {
        guard let (number, type) = numberType(value), type != "c" else { return nil }
        return number.doubleValue
    }

    static func bool(_ value: Any?) -> Bool? {
        guard let (number, type) = numberType(value), type == "c" else { return nil }
        return number.boolValue
    }
}
