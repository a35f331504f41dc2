#!/usr/bin/env bash
# make bench: smrun against baseline programs on Jester's self-driving car.
#
# Builds smrun (release) and the baselines, generates an input script (1M lines), and
# checks that every program prints exactly what the C baseline prints. Then times each
# program, interleaved, reading the script on stdin and writing to /dev/null, and prints
# the median wall and CPU time, the peak RSS, and the ratios to the C baseline. Last, it
# compares smrun's peak RSS over a script ten times as long.
#
# smrun runs as `smrun MACHINE` (text) and `smrun --format json MACHINE` (JSON Lines,
# only counted, not compared), and exits 1 as some inputs are rejected. If smrun does
# not build, the rest still runs.
#
# Settings, from the environment:
#   BENCH_LINES  lines in the script (1000000)      BENCH_SEED       its seed (1)
#   BENCH_RUNS   timed runs of each program (5)     BENCH_SLOW_RUNS  of pytransitions (3)
#   SMRUN        an smrun binary to use instead of building one
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

# Sets cmd to the command line of program $1, and ok_status to the exit status, besides
# 0, that it ends with when some input was rejected (as some are in every script).
command_of() {
    ok_status=0
    case $1 in
    c-table) cmd=("$work/car_table") ;;
    mawk | gawk) cmd=("$1" -f "$bench/baselines/car.awk") ;;
    python-dict) cmd=("$python" "$bench/baselines/car_dict.py") ;;
    pytransitions) cmd=("$venv/bin/python" "$bench/baselines/car_transitions.py") ;;
    smrun) cmd=("$smrun" "$machine") ok_status=1 ;;
    smrun-json) cmd=("$smrun" --format json "$machine") ok_status=1 ;;
    *) die "no program $1" ;;
    esac
}

# Times one run of program $1 over script $2, appending it, labelled $3, to file $4.
time_run() {
    local timing
    command_of "$1"
    timing=$("$work/measure" -s "$ok_status" "$2" "${cmd[@]}") || die "$1 failed on $2"
    printf '%s\t%s\n' "$3" "$timing" >>"$4"
}

# --- Build -------------------------------------------------------------------------

programs=(c-table)  # the C baseline comes first: the others are checked against it
cc -O2 -o "$work/car_table" "$bench/baselines/car_table.c"
cc -O2 -o "$work/measure" "$bench/measure.c"

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
    smrun=.build/release/smrun
    say "building smrun (log: $work/swift-build.log)"
    if ! swift build -c release --product smrun >"$work/swift-build.log" 2>&1; then
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
