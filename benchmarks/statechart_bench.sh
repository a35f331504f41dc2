#!/usr/bin/env bash
# The statechart part of make bench: one machine with parallel regions, deep history and an
# eventless step (benchmarks/statechart/player.yaml), against the same machine in Qt 6 SCXML
# (player.scxml, run by baselines/qt_scxml.cpp), python-statemachine (the same SCXML document)
# and sismic (player.sismic.yaml), over a script of random inputs.
#
#   benchmarks/statechart_bench.sh SMRUN [STATECRAFT_BENCHMARKS]
#
# First it checks that every engine reaches the same configuration after each of the first
# 10,000 inputs (smrun's from its JSON results). Then, in-process (loading excluded): the
# Statecraft engine (StatecraftBenchmarks statechart; also on connection.yaml, a machine whose
# states only nest, which runs on its leaf table), Qt over the whole script, and each
# Python engine over the first 10,000 inputs, in ns per input; and end to end, as processes
# printing a line per input: smrun (text) against the Qt program printing configurations.
# Qt SCXML comes from Debian's qt6-scxml-dev (installed when missing and run as root; skipped
# with a note otherwise); sismic and python-statemachine go into the bench venv.
#
# Settings, from the environment: BENCH_CHART_LINES (1000000), BENCH_CHART_SAMPLE (10000),
# BENCH_RUNS (5), BENCH_SEED (1).
set -euo pipefail
cd "$(dirname "$0")/.."
smrun=$1
benchmarks_binary=${2:-}
bench=benchmarks
work=$bench/.work
venv=$bench/.venv
lines=${BENCH_CHART_LINES:-1000000}
sample=${BENCH_CHART_SAMPLE:-10000}
runs=${BENCH_RUNS:-5}
seed=${BENCH_SEED:-1}
yaml=$bench/statechart/player.yaml
scxml=$bench/statechart/player.scxml
sismic=$bench/statechart/player.sismic.yaml
mkdir -p "$work"
cc -O2 -o "$work/measure" "$bench/measure.c"

say() { printf '%s\n' "$*"; }
note() { printf 'note: %s\n' "$*"; }
die() { printf 'statechart bench: %s\n' "$*" >&2; exit 1; }

say ""
say "statecharts: $yaml (parallel regions, deep history, an eventless step)"

# --- Engines -----------------------------------------------------------------------

qt=
if ! pkg-config --exists Qt6Scxml Qt6Core 2>/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing qt6-scxml-dev (log: $work/apt-qt6-scxml-dev.log)"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qt6-scxml-dev; } \
        >"$work/apt-qt6-scxml-dev.log" 2>&1 || true
fi
if pkg-config --exists Qt6Scxml Qt6Core 2>/dev/null; then
    # shellcheck disable=SC2046  # pkg-config's flags are words
    if g++ -O2 -fPIC -std=c++17 -o "$work/qt_scxml" "$bench/baselines/qt_scxml.cpp" \
        $(pkg-config --cflags --libs Qt6Scxml Qt6Core) 2>"$work/qt-build.log"; then
        qt=$work/qt_scxml
    else
        note "the Qt SCXML program did not build (see $work/qt-build.log): Qt skipped"
    fi
else
    note "Qt 6 SCXML (qt6-scxml-dev) is missing: Qt skipped"
fi

python_engines=()
say "setting up sismic and python-statemachine in $venv (log: $work/venv-statecharts.log)"
if { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } >"$work/venv-statecharts.log" 2>&1 &&
    "$venv/bin/pip" install -q sismic python-statemachine >>"$work/venv-statecharts.log" 2>&1; then
    python_engines=(sismic python-statemachine)
else
    note "could not install sismic and python-statemachine: skipped"
fi

# --- Script and agreement ----------------------------------------------------------

script=$work/chart-script-$lines-seed$seed.txt
python3 - "$lines" "$seed" >"$script" <<'PY'
import random, sys
lines, seed = int(sys.argv[1]), int(sys.argv[2])
names = ["play", "pause", "stop", "resume", "seek", "mute", "unmute", "lowBandwidth", "bandwidthRestored"]
rng = random.Random(seed)
sys.stdout.write("".join(rng.choice(names) + "\n" for _ in range(lines)))
PY
head -n "$sample" "$script" >"$work/chart-sample.txt"

engines=(statecraft)
status=0
"$smrun" --format json "$yaml" <"$work/chart-sample.txt" >"$work/chart-smrun.json" || status=$?
[ "$status" -le 1 ] || die "smrun failed on $yaml (exit status $status)"
python3 "$bench/baselines/statechart_engines.py" from-smrun-json <"$work/chart-smrun.json" >"$work/chart-statecraft.txt"
check() {
    if cmp -s "$work/chart-statecraft.txt" "$work/chart-$1.txt"; then
        engines+=("$1")
    else
        diff "$work/chart-statecraft.txt" "$work/chart-$1.txt" | head -n 10 >&2
        die "MISMATCH: $1's configurations differ from smrun's over the first $sample inputs"
    fi
}
if [ -n "$qt" ]; then
    "$qt" "$scxml" <"$work/chart-sample.txt" >"$work/chart-qt.txt" || die "the Qt program failed"
    check qt
fi
for engine in "${python_engines[@]}"; do
    file=$scxml
    [ "$engine" = sismic ] && file=$sismic
    "$venv/bin/python" "$bench/baselines/statechart_engines.py" "$engine" "$file" <"$work/chart-sample.txt" \
        >"$work/chart-$engine.txt" || die "$engine failed"
    check "$engine"
done
say "every engine reached the same configuration after each of the first $sample inputs: ${engines[*]}"

# --- In-process --------------------------------------------------------------------

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ns_statecraft=
if [ -n "$benchmarks_binary" ]; then
    # With malloc_count.so preloaded (bench.sh builds it), it also counts allocations per input.
    preload=
    [ -f "$work/malloc_count.so" ] && preload=$PWD/$work/malloc_count.so
    line=$(LD_PRELOAD=$preload "$benchmarks_binary" statechart "$yaml" --inputs "$lines") || die "StatecraftBenchmarks statechart failed"
    say "$line"
    ns_statecraft=$(printf '%s\n' "$line" | sed -E 's/.*: ([0-9.]+) ns per input.*/\1/')
    # A machine whose states only nest runs on its leaf table (docs/statecharts.md): its own line.
    LD_PRELOAD=$preload "$benchmarks_binary" statechart "$bench/statechart/connection.yaml" --inputs "$lines" ||
        die "StatecraftBenchmarks statechart failed on connection.yaml"
fi
declare -A ns
for engine in qt "${python_engines[@]}"; do
    [ "$engine" = qt ] && [ -z "$qt" ] && continue
    : >"$work/chart-$engine.times"
    for _ in $(seq "$runs"); do
        case $engine in
        qt) "$qt" -t "$scxml" <"$script" ;;
        sismic) "$venv/bin/python" "$bench/baselines/statechart_engines.py" sismic "$sismic" -t <"$work/chart-sample.txt" ;;
        *) "$venv/bin/python" "$bench/baselines/statechart_engines.py" "$engine" "$scxml" -t <"$work/chart-sample.txt" ;;
        esac | awk '{ printf "%.1f\n", $1 / $2 * 1e9 }' >>"$work/chart-$engine.times"
        [ "$engine" = qt ] || [ "$runs" -lt 3 ] || [ "$(wc -l <"$work/chart-$engine.times")" -lt 3 ] || break
    done
    ns[$engine]=$(median <"$work/chart-$engine.times")
done
say "in-process, ns per input (median; Python engines over the first $sample inputs, at most 3 runs):"
for engine in statecraft qt "${python_engines[@]}"; do
    value=${ns[$engine]:-}
    [ "$engine" = statecraft ] && value=$ns_statecraft
    [ -n "$value" ] || continue
    ratio=
    [ -n "$ns_statecraft" ] && ratio=$(awk -v a="$value" -v b="$ns_statecraft" 'BEGIN { printf "(%.1fx the Statecraft engine)", a / b }')
    printf '  %-20s %12s ns  %s\n' "$engine" "$value" "$ratio"
done
say "(targets: Statecraft at least 20x faster than Qt SCXML, 200x faster than the Python engines)"

# --- End to end --------------------------------------------------------------------

if [ -n "$qt" ]; then
    : >"$work/chart-e2e.tsv"
    for _ in $(seq "$runs"); do
        "$work/measure" -s 1 "$script" "$smrun" "$yaml" | sed 's/^/smrun\t/' >>"$work/chart-e2e.tsv"
        "$work/measure" "$script" "$qt" "$scxml" | sed 's/^/qt-scxml\t/' >>"$work/chart-e2e.tsv"
    done
    say "end to end over $lines inputs, printing a line per input (smrun: its text results; Qt: configurations):"
    python3 "$bench/report.py" table "$work/chart-e2e.tsv" qt-scxml
    say "(target: smrun at least 5x faster than the Qt program)"
fi
