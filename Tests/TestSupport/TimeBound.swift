import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Trait where Self == ConditionTrait {
    /// For a test that asserts a wall-clock bound ("refused in under a second"): skipped when
    /// `STATECRAFT_SKIP_TIME_BOUNDS` is set, as `make test-tsan` does, since a sanitized build
    /// (the test runner and the smrun it runs) is several times slower and such a bound says
    /// nothing there. Everything else such a test checks is still checked by `make test`.
    public static var timeBound: Self {
        .disabled(
            if: getenv("STATECRAFT_SKIP_TIME_BOUNDS") != nil,
            "asserts a wall-clock bound; STATECRAFT_SKIP_TIME_BOUNDS is set (make test-tsan)")
    }
}
