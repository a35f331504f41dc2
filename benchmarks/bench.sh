#!/usr/bin/env bash
# make bench: smrun against baseline programs on Jester's self-driving car.
#
# Builds smrun (release) and the baselines, generates an input script (1M lines), and
# checks that every program prints exactly what the C baseline prints. Then times each
# program, interleaved, reading the script on stdin and writing to /dev/null, and prints
# the median wall and CPU time, the peak RSS, and the ratios to the C baseline. Last, it
# compares smrun's peak RSS over a script ten times as long.
#
# Then, with StatecraftBenchmarks (benchmarks/StatecraftBenchmarks/, release): the engine in-process, in ns per
# transition (a file-loaded machine with and without its context effects, and with one
# observer) and heap allocations per transition, counted by preloading malloc_count.so;
# loading a generated machine of 10,000 states and 100,000 transitions (gen_big_machine.py,
# some 10 MB), by `smrun validate` and by YAMLFile.load in-process, each against
# libyaml's bare event parse of the same file (baselines/yaml_events.c), interleaved; the same
# machine as an SCXML document against libxml2's bare read (baselines/xml_reader.c); and
# `smrun validate` of a small machine against smrun's start-up (`smrun --help`); `smrun test` on
# 10,000 generated scenarios against `smrun run` over the same inputs. The statechart
# engine against Qt SCXML, sismic and python-statemachine: benchmarks/statechart_bench.sh.
#
# smrun runs as `smrun MACHINE` (text) and `smrun --format json MACHINE` (JSON Lines,
# only counted, not compared), and exits 1 as some inputs are rejected. If smrun does
# not build, the rest still runs.
#
# Settings, from the environment:
#   BENCH_LINES  lines in the script (1000000)      BENCH_SEED       its seed (1)
#   BENCH_RUNS   timed runs of each program (5)     BENCH_SLOW_RUNS  of pytransitions (3)
#   SMRUN        an smrun binary to use instead of building one
#   BENCH_ENGINE_TRANSITIONS  a run of the engine (10000000)   BENCH_ENGINE_RUNS  its runs (5)
#   BENCH_BIG_STATES, BENCH_BIG_TRANSITIONS, BENCH_BIG_INPUTS  the generated machine
#                (10000, 100000, 200)                      BENCH_LOAD_RUNS  timed loads (5)
#   BENCH_LOAD_TIMEOUT  seconds a load may take, and all of one program's loads (45)
#   BENCH_SMALL_RUNS  runs of `smrun validate` on the small machine (20)
#   BENCH_SCENARIOS, BENCH_SCENARIO_STEPS  `smrun test`'s scenarios and their steps (10000, 10)
# Scratch files go to benchmarks/.work/, pytransitions into the venv benchmarks/.venv/.
set -euo pipefail

smrun_override=${SMRUN:+$(realpath "$SMRUN")}
cd "$(dirname "$0")/.."
bench=benchmarks
work=$bench/.work
venv=$bench/.venv
machine=machines/self-driving-car.yaml
lines=${BENCH_LINES:-1000000}
seed=${BENCH_SEED:-1}
runs=${BENCH_RUNS:-5}
slow_runs=${BENCH_SLOW_RUNS:-3}  # pytransitions takes some 12 s a run over 1M lines
transitions_version=0.9.3
engine_transitions=${BENCH_ENGINE_TRANSITIONS:-10000000}
engine_runs=${BENCH_ENGINE_RUNS:-5}
big_states=${BENCH_BIG_STATES:-10000}
big_transitions=${BENCH_BIG_TRANSITIONS:-100000}
big_inputs=${BENCH_BIG_INPUTS:-200}
load_runs=${BENCH_LOAD_RUNS:-5}
load_timeout=${BENCH_LOAD_TIMEOUT:-45}
small_runs=${BENCH_SMALL_RUNS:-20}
small_machine=machines/traffic-light.yaml
scenario_count=${BENCH_SCENARIOS:-10000}
scenario_steps=${BENCH_SCENARIO_STEPS:-10}
mkdir -p "$work"

say() { printf '%s\n' "$*"; }
note() { printf 'note: %s\n' "$*"; }
die() { printf 'bench: %s\n' "$*" >&2; exit 1; }

# Succeeds if command $1 is there, installing Debian package $2 for it if need be.
ensure_command() {
    command -v "$1" >/dev/null && return 0
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        say "installing $2 (log: $work/apt-$2.log)"
        { apt-get update -qq && apt-get install -y -qq "$2"; } >"$work/apt-$2.log" 2>&1 || true
    fi
    command -v "$1" >/dev/null || { note "$1 is missing and could not be installed: skipped"; return 1; }
}

# Prints the path of an N-line script ($1), generating it unless it is up to date.
script_for() {
    local script=$work/script-$1-seed$seed.txt
    if [ ! -s "$script" ] || [ "$bench/gen_script.py" -nt "$script" ] ||
        [ "$bench/baselines/car_machine.py" -nt "$script" ]; then
        python3 "$bench/gen_script.py" "$1" "$seed" >"$script.tmp" || die "gen_script.py failed"
        mv "$script.tmp" "$script"
    fi
    printf '%s\n' "$script"
}

# Prints the path of the generated big machine, generating it unless it is up to date.
big_machine_file() {
    local file=$work/machine-${big_states}x${big_transitions}x${big_inputs}-seed$seed.yaml
    if [ ! -s "$file" ] || [ "$bench/gen_big_machine.py" -nt "$file" ]; then
        python3 "$bench/gen_big_machine.py" "$big_states" "$big_transitions" "$big_inputs" "$seed" >"$file.tmp" ||
            die "gen_big_machine.py failed"
        mv "$file.tmp" "$file"
    fi
    printf '%s\n' "$file"
}

# Succeeds if label $1's runs in results file $2 add up to less than the load timeout.
within_load_budget() {
    awk -F '\t' -v label="$1" -v budget="$load_timeout" '$1 == label { spent += $2 } END { exit !(spent < budget) }' "$2"
}

# Succeeds if wall time $1 (seconds) reached the load timeout.
timed_out() {
    awk -v wall="$1" -v limit="$load_timeout" 'BEGIN { exit !(wall >= limit - 0.05) }'
}

# Sets cmd to the command line of program $1, and ok_status to the exit status, besides
# 0, that it ends with when some input was rejected (as some are in every script), or
# when `timeout` stopped it (124).
command_of() {
    ok_status=0
    case $1 in
    c-table) cmd=("$work/car_table") ;;
    mawk | gawk) cmd=("$1" -f "$bench/baselines/car.awk") ;;
    python-dict) cmd=("$python" "$bench/baselines/car_dict.py") ;;
    pytransitions) cmd=("$venv/bin/python" "$bench/baselines/car_transitions.py") ;;
    smrun) cmd=("$smrun" "$machine") ok_status=1 ;;
    smrun-json) cmd=("$smrun" --format json "$machine") ok_status=1 ;;
    yaml-events) cmd=("$work/yaml_events" "$big") ;;
    smrun-validate) cmd=(timeout "$load_timeout" "$smrun" validate "$big") ok_status=124 ;;
    xml-reader) cmd=("$work/xml_reader" "$big_scxml") ;;
    smrun-validate-scxml) cmd=(timeout "$load_timeout" "$smrun" validate "$big_scxml") ok_status=124 ;;
    smrun-validate-small) cmd=("$smrun" validate "$small_machine") ;;
    smrun-help) cmd=("$smrun" --help) ;;
    smrun-test) cmd=("$smrun" test "$scenario_file") ;;
    *) die "no program $1" ;;
    esac
}

# Times one run of program $1 over script $2, appending it, labelled $3, to file $4.
time_run() {
    local timing
    command_of "$1"
    timing=$("$work/measure" -s "$ok_status" "$2" "${cmd[@]}" 2>"$work/stderr.txt") ||
        { cat "$work/stderr.txt" >&2; die "$1 failed on $2"; }
    printf '%s\t%s\n' "$3" "$timing" >>"$4"
}

# --- Build -------------------------------------------------------------------------

programs=(c-table)  # the C baseline comes first: the others are checked against it
cc -O2 -o "$work/car_table" "$bench/baselines/car_table.c"
cc -O2 -o "$work/measure" "$bench/measure.c"
cc -O2 -o "$work/yaml_events" "$bench/baselines/yaml_events.c" -lyaml
cc -O2 -o "$work/xml_reader" "$bench/baselines/xml_reader.c" $(pkg-config --cflags --libs libxml-2.0)
cc -O2 -shared -fPIC -o "$work/malloc_count.so" "$bench/malloc_count.c"

ensure_command mawk mawk && programs+=(mawk)
ensure_command gawk gawk && programs+=(gawk)

# The interpreter itself, not a version manager's shim, which would add to every run.
python=$(python3 -c 'import sys; print(sys.executable)')
programs+=(python-dict)

say "setting up pytransitions $transitions_version in $venv (log: $work/venv.log)"
if { [ -x "$venv/bin/python" ] || python3 -m venv "$venv"; } >"$work/venv.log" 2>&1 &&
    "$venv/bin/pip" install -q "transitions==$transitions_version" >>"$work/venv.log" 2>&1; then
    programs+=(pytransitions)
else
    note "could not install pytransitions: skipped"
fi

if [ -n "$smrun_override" ]; then
    smrun=$smrun_override
    say "using smrun $smrun (SMRUN set: not built)"
else
    # As `make release` builds it: a static executable, in a scratch path of its own.
    smrun=.build/static/release/smrun
    say "building smrun (log: $work/swift-build.log)"
    if ! make --no-print-directory release >"$work/swift-build.log" 2>&1; then
        note "smrun did not build; its last lines of output:"
        tail -n 5 "$work/swift-build.log" | sed 's/^/    /'
        smrun=
    fi
fi
if [ -n "$smrun" ] && [ -x "$smrun" ]; then
    programs+=(smrun smrun-json)
else
    note "no smrun binary: smrun skipped"
    smrun=
fi

benchmarks_binary=.build/release/StatecraftBenchmarks
say "building StatecraftBenchmarks (log: $work/swift-build-benchmarks.log)"
if ! swift build -c release --static-swift-stdlib --product StatecraftBenchmarks >"$work/swift-build-benchmarks.log" 2>&1; then
    note "StatecraftBenchmarks did not build; its last lines of output:"
    tail -n 5 "$work/swift-build-benchmarks.log" | sed 's/^/    /'
    benchmarks_binary=
fi

# --- Check -------------------------------------------------------------------------

say "generating the $lines-line script"
script=$(script_for "$lines")

say "checking every program's output against c-table's"
for program in "${programs[@]}"; do
    command_of "$program"
    out=$work/out-$program.txt
    status=0
    "${cmd[@]}" <"$script" >"$out" || status=$?
    [ "$status" -eq 0 ] || [ "$status" -eq "$ok_status" ] || die "$program failed on $script (exit status $status)"
    case $program in
    c-table | smrun-json)  # JSON Lines can't be compared with text: only counted
        count=$(wc -l <"$out")
        [ "$count" -eq "$lines" ] || die "$program printed $count lines, not $lines"
        ;;
    *)
        if ! cmp -s "$work/out-c-table.txt" "$out"; then
            diff "$work/out-c-table.txt" "$out" | head -n 20 >&2
            die "MISMATCH: $program's output differs from c-table's (see $out)"
        fi
        rm "$out"
        ;;
    esac
done

# --- Time --------------------------------------------------------------------------

results=$work/times.tsv
: >"$results"
for run in $(seq "$runs"); do
    say "timing: run $run of $runs"
    for program in "${programs[@]}"; do
        [ "$program" = pytransitions ] && [ "$run" -gt "$slow_runs" ] && continue
        time_run "$program" "$script" "$program" "$results"
    done
done

say ""
say "$lines-line script (seed $seed), runs interleaved; $(nproc) cores, $(uname -m)"
python3 "$bench/report.py" table "$results" c-table
python3 "$bench/report.py" per-line "$results" "$lines" c-table smrun smrun-json
if [[ " ${programs[*]} " == *" pytransitions "* ]] && [ "$slow_runs" -lt "$runs" ]; then
    note "pytransitions is slow: it had $slow_runs of the $runs runs"
fi

# --- Memory ------------------------------------------------------------------------

if [ -n "$smrun" ]; then
    long_lines=$((lines * 10))
    say ""
    say "memory: smrun over a $long_lines-line script"
    long_script=$(script_for "$long_lines")
    memory=$work/memory.tsv
    awk -F '\t' '$1 == "smrun"' "$results" >"$memory"
    time_run smrun "$long_script" smrun-x10 "$memory"
    python3 "$bench/report.py" growth "$memory" smrun smrun-x10
fi

# --- Engine, in-process ------------------------------------------------------------

if [ -n "$benchmarks_binary" ]; then
    say ""
    LD_PRELOAD=$PWD/$work/malloc_count.so "$benchmarks_binary" engine "$machine" \
        --transitions "$engine_transitions" --runs "$engine_runs" || die "StatecraftBenchmarks engine failed"
fi

# --- Timers ------------------------------------------------------------------------

if [ -n "$benchmarks_binary" ]; then
    say ""
    "$benchmarks_binary" timers || die "StatecraftBenchmarks timers failed"
fi
if [ -n "$smrun" ]; then
    # A 1M-line script on the timed traffic light, a `@wait 1s` every 10 lines.
    timed_script=$work/timed.script
    python3 -c 'import sys
for i in range(1, 1000001):
    sys.stdout.write("@wait 1s\n" if i % 10 == 0 else "button\n")' >"$timed_script"
    start=$(date +%s%N)
    "$smrun" machines/timed-traffic-light.yaml <"$timed_script" >/dev/null || die "smrun on the timed script failed"
    end=$(date +%s%N)
    say "smrun machines/timed-traffic-light.yaml, 1,000,000 lines with a @wait every 10: $(( (end - start) / 1000000 )) ms in all, so as many ns per line"
fi

# --- Scenarios ---------------------------------------------------------------------

if [ -n "$smrun" ]; then
    # smrun test on scenario_count scenarios of scenario_steps steps, each expecting the state
    # (gen_scenarios.py), against smrun run over the same inputs as one script.
    scenario_file=$work/cars.test.yaml
    scenario_script=$work/cars.script
    python3 "$bench/gen_scenarios.py" "$scenario_count" "$scenario_steps" "$seed" "$PWD/$machine" \
        "$scenario_file" "$scenario_script" || die "gen_scenarios.py failed"
    "$smrun" test "$scenario_file" >/dev/null || die "smrun test failed on $scenario_file"
    : >"$work/scenario-times.tsv"
    for run in $(seq "$runs"); do
        time_run smrun-test /dev/null smrun-test "$work/scenario-times.tsv"
        time_run smrun "$scenario_script" smrun-run "$work/scenario-times.tsv"
    done
    say ""
    awk -F '\t' -v count="$scenario_count" -v steps="$scenario_steps" '
        { walls[$1] = walls[$1] " " $2; cpus[$1] = cpus[$1] " " ($3 + $4) }
        function median(list,   values, n, i, j, t) {
            n = split(list, values, " ")
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (values[j] < values[i]) { t = values[i]; values[i] = values[j]; values[j] = t }
            return n % 2 ? values[(n + 1) / 2] : (values[n / 2] + values[n / 2 + 1]) / 2
        }
        END {
            test = median(walls["smrun-test"]); run = median(walls["smrun-run"])
            printf "smrun test, %d scenarios of %d steps: %.3f s; smrun run, the same %d inputs: %.3f s\n", count, steps, test, count * steps, run
            printf "  smrun test takes %.3f s more, %.1fx (medians of %d runs; target: well under a second more)\n", test - run, test / run, NR / 2
            printf "  CPU time (user + sys): %.3f s against %.3f s, %.3f s more\n", median(cpus["smrun-test"]), median(cpus["smrun-run"]), median(cpus["smrun-test"]) - median(cpus["smrun-run"])
        }' "$work/scenario-times.tsv"
fi

# --- Statecharts against Qt SCXML, sismic and python-statemachine ---------------------

if [ -n "$smrun" ]; then
    "$bench/statechart_bench.sh" "$smrun" "$benchmarks_binary"
fi

# --- Load --------------------------------------------------------------------------

say ""
say "generating a machine of $big_states states, $big_transitions transitions and $big_inputs inputs"
big=$(big_machine_file)
load_results=$work/load.tsv
inprocess_results=$work/load-inprocess.tsv
: >"$load_results"
: >"$inprocess_results"
validate_timed_out=
load_timed_out=
for run in $(seq "$load_runs"); do
    say "timing the load: run $run of $load_runs"
    time_run yaml-events /dev/null yaml-events "$load_results"
    if [ -n "$smrun" ] && [ -z "$validate_timed_out" ] && within_load_budget smrun-validate "$load_results"; then
        time_run smrun-validate /dev/null smrun-validate "$load_results"
        timed_out "$(tail -n 1 "$load_results" | cut -f 2)" && validate_timed_out=yes
    fi
    timing=$("$work/yaml_events" -t "$big") || die "yaml_events failed on $big"
    printf '%s\t%s\n' yaml-events "$timing" >>"$inprocess_results"
    if [ -n "$benchmarks_binary" ] && [ -z "$load_timed_out" ] &&
        within_load_budget YAMLFile.load "$inprocess_results"; then
        status=0
        timing=$("$benchmarks_binary" load "$big" --timeout "$load_timeout") || status=$?
        [ "$status" -eq 0 ] || [ "$status" -eq 124 ] || die "StatecraftBenchmarks load failed on $big"
        [ "$status" -eq 124 ] && load_timed_out=yes
        printf '%s\t%s\n' YAMLFile.load "$timing" >>"$inprocess_results"
    fi
done

say ""
say "load of $big ($(wc -c <"$big") bytes), runs interleaved; each program stops after ${load_timeout} s in all"
say "as processes, from exec to exit (smrun validate also lints):"
python3 "$bench/report.py" table "$load_results" yaml-events
say "in-process, start-up excluded (reading the file and loading it):"
python3 "$bench/report.py" table "$inprocess_results" yaml-events
for stopped in ${validate_timed_out:+smrun-validate} ${load_timed_out:+YAMLFile.load}; do
    note "$stopped did not finish in $load_timeout s (BENCH_LOAD_TIMEOUT) and was stopped: its times and ratios are lower bounds"
done
say "(target: loading takes at most 2x the bare parse)"
if [ -n "$benchmarks_binary" ]; then
    if [ -z "$load_timed_out" ]; then
        say "where YAMLFile.load's time goes:"
        timeout "$load_timeout" "$benchmarks_binary" phases "$big" || note "the breakdown did not finish in $load_timeout s"
    else
        note "no breakdown of the load: it would not finish either"
    fi
fi

# --- SCXML load --------------------------------------------------------------------

# The same machine as an SCXML document (written by `smrun export`, again whenever the machine
# file or smrun is newer than it), loaded by `smrun validate`
# and by SCXMLFile.load in-process, each against libxml2's bare streaming read of the document
# (baselines/xml_reader.c), interleaved.
if [ -n "$smrun" ]; then
    say ""
    big_scxml=${big%.yaml}.scxml
    if [ ! -s "$big_scxml" ] || [ "$big" -nt "$big_scxml" ] || [ "$smrun" -nt "$big_scxml" ]; then
        "$smrun" export --format scxml "$big" >"$big_scxml.tmp" || die "smrun export failed on $big"
        mv "$big_scxml.tmp" "$big_scxml"
    fi
    scxml_results=$work/load-scxml.tsv
    scxml_inprocess_results=$work/load-scxml-inprocess.tsv
    : >"$scxml_results"
    : >"$scxml_inprocess_results"
    for run in $(seq "$load_runs"); do
        say "timing the SCXML load: run $run of $load_runs"
        time_run xml-reader /dev/null xml-reader "$scxml_results"
        within_load_budget smrun-validate "$scxml_results" && time_run smrun-validate-scxml /dev/null smrun-validate "$scxml_results"
        timing=$("$work/xml_reader" -t "$big_scxml") || die "xml_reader failed on $big_scxml"
        printf '%s\t%s\n' xml-reader "$timing" >>"$scxml_inprocess_results"
        if [ -n "$benchmarks_binary" ] && within_load_budget SCXMLFile.load "$scxml_inprocess_results"; then
            status=0
            timing=$("$benchmarks_binary" load "$big_scxml" --timeout "$load_timeout") || status=$?
            [ "$status" -eq 0 ] || [ "$status" -eq 124 ] || die "StatecraftBenchmarks load failed on $big_scxml"
            printf '%s\t%s\n' SCXMLFile.load "$timing" >>"$scxml_inprocess_results"
        fi
    done
    say "load of $big_scxml ($(wc -c <"$big_scxml") bytes), runs interleaved"
    say "as processes, from exec to exit (smrun validate also lints):"
    python3 "$bench/report.py" table "$scxml_results" xml-reader
    say "in-process, start-up excluded (reading the file and loading it):"
    python3 "$bench/report.py" table "$scxml_inprocess_results" xml-reader
    say "(target: loading takes at most 2x libxml2's bare read)"
fi

# --- Small machine -----------------------------------------------------------------

if [ -n "$smrun" ]; then
    say ""
    small_results=$work/small.tsv
    : >"$small_results"
    for run in $(seq "$small_runs"); do
        time_run smrun-help /dev/null smrun-help "$small_results"
        time_run smrun-validate-small /dev/null smrun-validate "$small_results"
    done
    say "smrun validate $small_machine against smrun's start-up (smrun --help), $small_runs runs interleaved"
    python3 "$bench/report.py" table --ms --vs help "$small_results" smrun-help
    say "(target: smrun validate of a small machine takes at most 10 ms)"
fi
