/// "Did you mean ...?" for a misspelt name.
package enum Suggestion {
    /// The candidate closest to `name` by edit distance, if it is close enough to be a typo.
    /// Of candidates equally close, the first in code-point order, so that the suggestion does
    /// not depend on the order the candidates come in (a dictionary's keys differ between runs).
    package static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        // Names are short; a long one (a stray line of a script) is no typo of any of them.
        guard name.utf8.count <= 256 else { return nil }
        let target = Array(name.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            // The distance is at least the difference in length: skip what cannot be close.
            if abs(candidate.unicodeScalars.count - target.count) > max(1, target.count / 3) { continue }
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            if distance <= max(1, min(target.count, candidate.unicodeScalars.count) / 3), distance < target.count,
                best.map({ distance < $0.distance || (distance == $0.distance && candidate < $0.name) }) ?? true
            {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// ` (did you mean 'x'?)`, or nothing when no candidate is close.
    package static func didYouMean(_ name: String, in candidates: some Sequence<String>) -> String {
        closest(to: name, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Edit distance counting a swap of two neighbours as one edit (optimal string alignment).
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
