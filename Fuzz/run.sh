#!/usr/bin/env bash
# make fuzz: libFuzzer with AddressSanitizer on the four fuzz targets of Fuzz/.
#
#   FuzzMachineFile  machine-file bytes -> YAMLFile.load; a valid machine is also run, drawn
#                    (DOT, Mermaid) and linted
#   FuzzScriptLine   input-script lines and --send values -> SmrunCore's ScriptLineParser -> Runner
#   FuzzExpression   guard / set expressions -> ExpressionParser, ExpressionChecker, evaluation
#   FuzzSCXML        SCXML bytes -> SCXMLFile.load (libxml2); a valid machine is written as YAML
#                    and as SCXML (smrun export), each loaded again, and run
#
# Builds each target with `-sanitize=fuzzer,address` into .build-fuzz/, then runs it for
# FUZZ_SECONDS on Fuzz/.work/TARGET/corpus/, a working corpus seeded from Fuzz/Corpus/TARGET/
# that keeps what earlier runs found (for FuzzMachineFile, with 300 generated statecharts added:
# Fuzz/generate-statecharts.py). Fails on the first crash, sanitizer report, input slower
# than 5 s (-timeout) or run over 2 GiB (-rss_limit_mb): the input is left in
# Fuzz/.work/TARGET/artifacts/ and the log in Fuzz/.work/TARGET/log. To reproduce one without
# libFuzzer: `swift build && .build/debug/TARGET Fuzz/.work/TARGET/artifacts/crash-...`.
#
# Settings, from the environment:
#   FUZZ_SECONDS  seconds per target (60)     FUZZ_TARGETS  targets to run (all four)
#   FUZZ_CONFIG   release (default), or debug: adds the standard library's bounds checks on unsafe
#                 buffers (ASan already catches accesses outside an allocation), 3-30 times slower
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-FuzzMachineFile FuzzScriptLine FuzzExpression FuzzSCXML}
config=${FUZZ_CONFIG:-release}
swift=${SWIFT:-swift}
scratch=.build-fuzz

mkdir -p Fuzz/.work
for target in $targets; do
    echo "fuzz: building $target ($config)"
    # -DFUZZING drops each target's own main, so that libFuzzer's runs. The linker's
    # "Cannot export local symbol" warnings about ASan's helpers are noise.
    if ! "$swift" build -c "$config" --scratch-path "$scratch" --product "$target" \
        --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING > Fuzz/.work/build.log 2>&1; then
        grep -v "Cannot export local symbol" Fuzz/.work/build.log >&2
        echo "fuzz: building $target FAILED" >&2
        exit 1
    fi
done

bin=$("$swift" build -c "$config" --scratch-path "$scratch" --show-bin-path)
for target in $targets; do
    work=Fuzz/.work/$target
    mkdir -p "$work/corpus"
    rm -rf "$work/artifacts"
    mkdir "$work/artifacts"
    cp Fuzz/Corpus/"$target"/* "$work/corpus/"
    # Statecharts that load, which byte mutation alone seldom builds (see the script).
    if [ "$target" = FuzzMachineFile ]; then python3 Fuzz/generate-statecharts.py "$work/corpus" 300 1; fi
    echo "fuzz: $target for $seconds s"
    status=0
    # SWIFT_BACKTRACE=enable=no: Swift's backtracer would hang after a crash. LSan: see Fuzz/lsan.supp.
    SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=Fuzz/lsan.supp:print_suppressions=0 "$bin/$target" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$work/corpus" > "$work/log" 2>&1 || status=$?
    if [ "$status" -ne 0 ] || [ -n "$(ls -A "$work/artifacts")" ]; then
        # The report's head (the Swift error or sanitizer report and the first frames), then the
        # input itself in base64, so that a CI log alone is enough to reproduce it.
        grep -m 1 -A 30 -E 'Fatal error|==ERROR|deadly signal|ALARM|out-of-memory' "$work/log" || tail -n 40 "$work/log"
        for artifact in "$work/artifacts"/*; do
            [ -f "$artifact" ] && echo "fuzz: input $(basename "$artifact") in base64: $(head -c 4096 "$artifact" | base64 -w 0)"
        done
        echo "fuzz: $target FAILED (exit status $status); input: $(ls "$work/artifacts"/* 2>/dev/null | tr '\n' ' ')" >&2
        exit 1
    fi
    grep -E '^#[0-9]+[[:space:]]+DONE|^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$work/log" | sed "s/^/  /"
done
echo "fuzz: no crash, sanitizer report or timeout in ${seconds} s per target"
