/// Hands out one array for each distinct list of ids, so that the compiled transitions of a
/// large machine share their source and effect lists instead of allocating one each: 100,000
/// transitions leave from 10,000 states and run a few dozen effect combinations.
struct SharedIDLists {
    /// The list `[id]`, by id, once made.
    private var singles: [[Int]?]
    /// Longer lists, by their ids.
    private var lists: [[Int]: [Int]] = [:]

    /// Lists of ids below `idCount`.
    init(idCount: Int) {
        singles = [[Int]?](repeating: nil, count: idCount)
    }

    /// The shared `[id]`.
    mutating func list(of id: Int) -> [Int] {
        if let list = singles[id] { return list }
        let list = [id]
        singles[id] = list
        return list
    }

    /// The shared array equal to `ids`.
    mutating func list(_ ids: [Int]) -> [Int] {
        switch ids.count {
        case 0: return []
        case 1: return list(of: ids[0])
        default:
            if let list = lists[ids] { return list }
            lists[ids] = ids
            return ids
        }
    }
}
