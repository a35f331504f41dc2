/// A statechart with timers at two depths, shared by the tests of timers in scripts, scenario
/// files, paths and state files: `busy` goes back to `idle` after 10 s, and the parent `online`
/// goes `offline` after 1 min, whichever of its children is active.
enum TimedChart {
    static let yaml = """
        initial: online
        inputs: [click]
        states:
          online:
            states:
              idle:
              busy:
          offline:
        transitions:
          - click | idle => busy
          - after: 10s
            from: busy
            to: idle
          - after: 1m
            from: online
            to: offline
        """
}
