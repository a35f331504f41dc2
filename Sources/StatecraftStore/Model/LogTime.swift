/// Where the keyed logs of a machine (`smrun run --by-key --store`) left the virtual clock: a
/// row of a store's settings per machine, so that the next log goes on from there even when
/// the last lines moved the clock and fired nothing.
package enum LogTime {
    /// The name of `machine`'s setting.
    package static func setting(_ machine: String) -> String { "log-time:" + machine }
}
