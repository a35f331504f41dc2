#!/usr/bin/env bash
# make bench, second part: `smrun serve` and `smrun run --by-key` (docs/performance.md).
#
# Every figure is measured here, on the work disk (never tmpfs), against what the same
# machine does in the same run:
#   - the disk's fsyncs per second (4 KiB write + fsync), what one durable commit costs;
#   - durable inputs per second and p99 latency: wrk -t1 -c64 --latency on loopback, a Lua
#     script sending each of 10,000 instances the next line of the machine's script, for the
#     self-driving car and for the media player (a statechart), each on a fresh store;
#   - then, on the same server, the latency of inputs paced at set rates (each of
#     BENCH_PACED_RATES inputs a second, shared by the same 64 connections): what a user sees
#     below the saturated rate, where the closed loop of 64 connections no longer sets it;
#   - the same on PostgreSQL (a throwaway cluster on the work disk, with its default
#     durability: fsync and synchronous_commit on), with one server, then with three on one
#     database, each with a third of the instances and its own wrk -c21/-c21/-c22 (their rates
#     summed; the p50 and p99 shown are the highest of the three): on two cores they share them,
#     so this shows what the database's round trips cost, not a gain;
#   - 1,000,000 stored instances (copies of instances made through the API, so every row is
#     what the server wrote): list-by-state with limit=100 on a state about 10% hold (an
#     ancestor state in the statechart), p50/p99 of 100 requests, and the server's VmHWM;
#   - start-up with 100,000 overdue timers: how long until /healthz and a send are answered,
#     and how long the backlog takes to fire;
#   - 100,000 timers due uniformly over BENCH_TIMER_SPAN seconds: their lateness at p99
#     (from due time to commit), from the server's own histogram;
#   - smrun run --by-key over a 10,000,000-line log (keys uniform over 100,000, each
#     following the car's script): inputs per second, median of 5 whole-process runs, text
#     to /dev/null, --format json once, and --store once (a new SQLite file on the work disk,
#     every line committed, as smrun serve would have stored it).
#
# Settings, from the environment:
#   SMRUN                 the smrun to measure (default .build/static/release/smrun, `make release`)
#   BENCH_SERVE_SECONDS   each wrk run's length (30)      BENCH_SERVE_INSTANCES  instances it sends to (10000)
#   BENCH_STORED          instances in the big store (1000000)
#   BENCH_OVERDUE         overdue timers at start-up (100000)
#   BENCH_TIMERS          timers due over the span (100000)   BENCH_TIMER_SPAN  seconds (600)
#   BENCH_LOG_LINES       lines of the --by-key log (10000000)  BENCH_LOG_KEYS  its keys (100000)
#   BENCH_KEYED_RUNS      timed --by-key runs (5)
#   BENCH_PACED_RATES     offered rates of the paced runs ("2500 5000")   BENCH_PACED_SECONDS  each one's length (15)
#   BENCH_SKIP            space-separated parts to leave out: wrk postgres stored overdue timers keyed
set -euo pipefail
cd "$(dirname "$0")/.."

SMRUN=${SMRUN:-.build/static/release/smrun}
SECONDS_PER_RUN=${BENCH_SERVE_SECONDS:-30}
INSTANCES=${BENCH_SERVE_INSTANCES:-10000}
STORED=${BENCH_STORED:-1000000}
OVERDUE=${BENCH_OVERDUE:-100000}
TIMERS=${BENCH_TIMERS:-100000}
SPAN=${BENCH_TIMER_SPAN:-600}
LOG_LINES=${BENCH_LOG_LINES:-10000000}
LOG_KEYS=${BENCH_LOG_KEYS:-100000}
KEYED_RUNS=${BENCH_KEYED_RUNS:-5}
PACED_RATES=${BENCH_PACED_RATES:-2500 5000}
PACED_SECONDS=${BENCH_PACED_SECONDS:-15}
SKIP=" ${BENCH_SKIP:-} "
WORK="$PWD/benchmarks/.work/serve"
mkdir -p "$WORK"

say() { printf '%s\n' "$*"; }
die() { printf 'serve_bench: %s\n' "$*" >&2; exit 1; }
skipped() { [[ "$SKIP" == *" $1 "* ]]; }
now_ms() { date +%s%3N; }

[ -x "$SMRUN" ] || die "no smrun at $SMRUN: run make release first, or set SMRUN"
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
command -v sqlite3 >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null; }

SERVER_PID=
SERVER_PIDS=()
PORT=
PORTS=()
# Stops every server started.
stop_server() {
    for pid in "${SERVER_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${SERVER_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    SERVER_PIDS=()
    PORTS=()
    SERVER_PID=
}
PG_DATA=
stop_postgres() {
    if [ -n "$PG_DATA" ]; then
        as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast stop > /dev/null 2>&1 || true
        PG_DATA=
    fi
}
trap 'stop_server; stop_postgres' EXIT

# Starts smrun serve on store $1 with machine files $2... (beside the servers already
# started); sets SERVER_PID and PORT to the new one's, and appends them to SERVER_PIDS and PORTS.
start_server() {
    local store=$1
    shift
    local log="$WORK/server-${#SERVER_PIDS[@]}.log"
    "$SMRUN" serve "$@" --store "$store" --listen 127.0.0.1:0 2> "$log" &
    SERVER_PID=$!
    SERVER_PIDS+=("$SERVER_PID")
    for _ in $(seq 1 600); do
        PORT=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$log")
        if [ -n "$PORT" ]; then
            PORTS+=("$PORT")
            return 0
        fi
        kill -0 "$SERVER_PID" 2>/dev/null || die "smrun serve did not start: $(cat "$log")"
        sleep 0.05
    done
    die "smrun serve did not say where it listens"
}

# The highest of wrk's latency percentile $1 (50%, 99%) in the reports $2..., in ms.
highest_latency() {
    local percentile=$1
    shift
    cat "$@" | awk -v p="$percentile" '
        function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /m$/) return v * 60000; return v * 1000 }
        $1 == p { value = ms($2); if (value > highest) highest = value }
        END { printf "%.2fms", highest }'
}

# Runs a PostgreSQL program as the postgres user when run as root (initdb refuses root).
as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

post() { curl -sf -X POST "http://127.0.0.1:$PORT$1" -d "$2" > /dev/null; }

# The peak resident set of process $1, in MB.
vm_hwm() { awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status"; }

say "smrun: $SMRUN ($("$SMRUN" --version))"
say "disk: $(python3 benchmarks/serve/fsync_rate.py "$WORK" 3) fsyncs/s (4 KiB write + fsync, on $(df -P "$WORK" | awk 'NR == 2 { print $1 }'))"

# --- Durable inputs over HTTP -----------------------------------------------------------
if ! skipped wrk; then
    for case in "self-driving-car machines/self-driving-car.yaml machines/self-driving-car.script" \
        "media-player machines/media-player.yaml machines/media-player.script"; do
        set -- $case
        rm -f "$WORK"/wrk.sqlite*
        python3 benchmarks/serve/wrk_bodies.py "$1" "$3" "$INSTANCES" > "$WORK/$1.lua"
        start_server "$WORK/wrk.sqlite" "$2"
        wrk -t1 -c64 -d"${SECONDS_PER_RUN}s" --latency -s "$WORK/$1.lua" "http://127.0.0.1:$PORT" > "$WORK/$1.wrk"
        rate=$(awk '/Requests\/sec/ { print $2 }' "$WORK/$1.wrk")
        p50=$(awk '$1 == "50%" { print $2 }' "$WORK/$1.wrk")
        p99=$(awk '$1 == "99%" { print $2 }' "$WORK/$1.wrk")
        errors=$(awk '/^non2xx/ { print $2 + $4 }' "$WORK/$1.wrk")
        say "serve $1: $rate durable inputs/s, p50 $p50, p99 $p99 (wrk -t1 -c64 -d${SECONDS_PER_RUN}s, $INSTANCES instances); $errors non-2xx or failed"
        for offered in $PACED_RATES; do
            python3 benchmarks/serve/wrk_bodies.py --rate "$offered" "$1" "$3" "$INSTANCES" > "$WORK/$1-paced.lua"
            wrk -t1 -c64 -d"${PACED_SECONDS}s" --latency -s "$WORK/$1-paced.lua" "http://127.0.0.1:$PORT" > "$WORK/$1-$offered.wrk"
            rate=$(awk '/Requests\/sec/ { printf "%.0f", $2 }' "$WORK/$1-$offered.wrk")
            p50=$(awk '$1 == "50%" { print $2 }' "$WORK/$1-$offered.wrk")
            p90=$(awk '$1 == "90%" { print $2 }' "$WORK/$1-$offered.wrk")
            p99=$(awk '$1 == "99%" { print $2 }' "$WORK/$1-$offered.wrk")
            errors=$(awk '/^non2xx/ { print $2 + $4 }' "$WORK/$1-$offered.wrk")
            say "serve $1 offered $offered inputs/s: $rate answered/s, p50 $p50, p90 $p90, p99 $p99 (paced over 64 connections, ${PACED_SECONDS}s); $errors non-2xx or failed"
        done
        hwm=$(vm_hwm "$SERVER_PID")
        stop_server
        entries=$(sqlite3 "$WORK/wrk.sqlite" "SELECT count(*) FROM history")
        say "serve $1: $entries history entries; VmHWM ${hwm} MB"
    done
fi

# --- Durable inputs over HTTP on PostgreSQL: one server, then three on one database ---------
if ! skipped postgres; then
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    [ -x "$PG_BIN/initdb" ] || die "PostgreSQL is needed (Debian: postgresql): run make test-deps"
    rm -rf "$WORK/pg"
    mkdir -p "$WORK/pg"
    [ "$(id -u)" != 0 ] || chown postgres:postgres "$WORK/pg"
    as_postgres "$PG_BIN/initdb" -D "$WORK/pg/data" -U postgres --auth=trust -E UTF8 > /dev/null
    PG_PORT=$((20000 + RANDOM % 30000))
    as_postgres "$PG_BIN/pg_ctl" -D "$WORK/pg/data" -l "$WORK/pg/log" -w \
        -o "-p $PG_PORT -k $WORK/pg -c listen_addresses=127.0.0.1 -c max_connections=200" start > /dev/null
    PG_DATA="$WORK/pg/data"
    pg() { psql -X -q -A -t -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U postgres "$@"; }
    say "PostgreSQL $(pg -d postgres -c 'SHOW server_version'): fsync $(pg -d postgres -c 'SHOW fsync'), synchronous_commit $(pg -d postgres -c 'SHOW synchronous_commit'), on $(df -P "$WORK" | awk 'NR == 2 { print $1 }')"
    for case in "self-driving-car machines/self-driving-car.yaml machines/self-driving-car.script" \
        "media-player machines/media-player.yaml machines/media-player.script"; do
        set -- $case
        for servers in 1 3; do
            database="bench_${1//-/_}_$servers"
            pg -d postgres -c "CREATE DATABASE $database"
            for n in $(seq 1 "$servers"); do
                start_server "postgres://postgres@127.0.0.1:$PG_PORT/$database?sslmode=disable" "$2"
            done
            # 64 connections in all, and the instances split between the wrk processes.
            pids=()
            for n in $(seq 0 $((servers - 1))); do
                connections=$((64 / servers + (n < 64 % servers ? 1 : 0)))
                python3 benchmarks/serve/wrk_bodies.py "$1" "$3" $((INSTANCES / servers)) "s${n}k" > "$WORK/$1-pg-$n.lua"
                wrk -t1 -c"$connections" -d"${SECONDS_PER_RUN}s" --latency -s "$WORK/$1-pg-$n.lua" "http://127.0.0.1:${PORTS[$n]}" \
                    > "$WORK/$1-pg-$servers-$n.wrk" &
                pids+=($!)
            done
            wait "${pids[@]}"
            hwm=$(for pid in "${SERVER_PIDS[@]}"; do vm_hwm "$pid"; echo; done | sort -n | tail -1)
            stop_server
            files=$(for n in $(seq 0 $((servers - 1))); do echo "$WORK/$1-pg-$servers-$n.wrk"; done)
            rate=$(cat $files | awk '/Requests\/sec/ { sum += $2 } END { printf "%.0f", sum }')
            p50=$(highest_latency 50% $files)
            p99=$(highest_latency 99% $files)
            errors=$(cat $files | awk '/^non2xx/ { sum += $2 + $4 } END { print sum + 0 }')
            entries=$(pg -d "$database" -c "SELECT count(*) FROM statecraft.history")
            say "serve $1 on PostgreSQL, $servers server(s): $rate durable inputs/s, p50 $p50, p99 $p99 (64 connections, $INSTANCES instances); $errors non-2xx or failed; $entries history entries; VmHWM ${hwm} MB (the largest server)"
        done
    done
    stop_postgres
fi

# --- 1,000,000 stored instances -----------------------------------------------------------
if ! skipped stored; then
    for case in "self-driving-car machines/self-driving-car.yaml drivingAround" "media-player machines/media-player.yaml active"; do
        set -- $case
        rm -f "$WORK"/stored.sqlite*
        start_server "$WORK/stored.sqlite" "$2"
        # Ten templates, one in ten in the state listed (or under it).
        if [ "$1" = self-driving-car ]; then
            for t in 0 1 2 3 4 5 6 7 8 9; do post "/machines/$1/instances" "{\"key\":\"t$t\"}"; done
            post "/machines/$1/instances/t0/inputs" '{"input":"startEngine"}'
            post "/machines/$1/instances/t0/inputs" '{"input":"driveAround"}'
        else
            for t in 0 1 2 3 4 5 6 7 8 9; do post "/machines/$1/instances" "{\"key\":\"t$t\"}"; done
            post "/machines/$1/instances/t0/inputs" '{"input":"play"}'
        fi
        stop_server
        python3 benchmarks/serve/clone_instances.py "$WORK/stored.sqlite" "$1" "$STORED" > /dev/null
        start_server "$WORK/stored.sqlite" "$2"
        latency=$(python3 benchmarks/serve/list_latency.py "http://127.0.0.1:$PORT" "$1" "$3" 100 100 "$STORED")
        hwm=$(vm_hwm "$SERVER_PID")
        stop_server
        say "list $1 by state=$3 over $STORED stored instances: $latency; VmHWM ${hwm} MB"
    done
fi

# --- Start-up with overdue timers -------------------------------------------------------------
if ! skipped overdue; then
    rm -f "$WORK"/overdue.sqlite*
    start_server "$WORK/overdue.sqlite" machines/timed-traffic-light.yaml
    post /machines/timed-traffic-light/instances '{"key":"t0"}'
    stop_server
    base=$(($(now_ms) - 120000))
    python3 benchmarks/serve/clone_instances.py "$WORK/overdue.sqlite" timed-traffic-light "$OVERDUE" "$base" 60000 > /dev/null
    sqlite3 "$WORK/overdue.sqlite" "DELETE FROM instances WHERE key = 't0'; DELETE FROM timers WHERE key = 't0'; DELETE FROM history WHERE key = 't0'"
    started=$(now_ms)
    start_server "$WORK/overdue.sqlite" machines/timed-traffic-light.yaml
    until curl -sf "http://127.0.0.1:$PORT/healthz" > /dev/null; do sleep 0.01; done
    healthy=$(($(now_ms) - started))
    curl -sf -X POST "http://127.0.0.1:$PORT/machines/timed-traffic-light/instances/fresh/inputs" -d '{"input":"button","create":true}' > /dev/null
    answered=$(($(now_ms) - started))
    until [ "$(sqlite3 "$WORK/overdue.sqlite" "SELECT count(*) FROM timers WHERE due < $started")" = 0 ]; do sleep 0.2; done
    drained=$(($(now_ms) - started))
    stop_server
    say "start-up with $OVERDUE overdue timers: /healthz after ${healthy} ms, a send answered after ${answered} ms, the backlog fired after ${drained} ms"
fi

# --- Timers due over a span ---------------------------------------------------------------------
# Orders awaiting payment (docs/examples/order.yaml), each with its one timeout: a timer fires
# once and the order is cancelled, so the 100,000 timers are all there is to fire. (A traffic
# light would start its next timer each time, and the load would grow without end.)
if ! skipped timers; then
    rm -f "$WORK"/timers.sqlite*
    start_server "$WORK/timers.sqlite" docs/examples/order.yaml
    post /machines/order/instances '{"key":"t0"}'
    post /machines/order/instances/t0/inputs '{"input":"place","arg":100}'
    stop_server
    sqlite3 "$WORK/timers.sqlite" "SELECT 1" > /dev/null
    base=$(($(now_ms) + 15000))
    python3 benchmarks/serve/clone_instances.py "$WORK/timers.sqlite" order "$TIMERS" "$base" $((SPAN * 1000)) > /dev/null
    sqlite3 "$WORK/timers.sqlite" "DELETE FROM instances WHERE key = 't0'; DELETE FROM timers WHERE key = 't0'; DELETE FROM history WHERE key = 't0'"
    start_server "$WORK/timers.sqlite" docs/examples/order.yaml
    sleep $(((base - $(now_ms)) / 1000 + SPAN + 5))
    curl -sf "http://127.0.0.1:$PORT/metrics" > "$WORK/metrics.txt"
    stop_server
    p99=$(python3 - "$WORK/metrics.txt" <<'EOF'
import re, sys
buckets = []
for line in open(sys.argv[1]):
    m = re.match(r'statecraft_timer_lateness_seconds_bucket\{le="([^"]+)"\} (\d+)', line)
    if m:
        buckets.append((float("inf") if m.group(1) == "+Inf" else float(m.group(1)), int(m.group(2))))
total = buckets[-1][1] if buckets else 0
bound = next((le for le, count in buckets if count >= 0.99 * total), float("inf"))
print(f"{total} fired; p99 at most {bound * 1000:.0f} ms" if total else "none fired")
EOF
)
    say "$TIMERS timers due over ${SPAN} s: $p99 late (from due to commit)"
fi

# --- smrun run --by-key -----------------------------------------------------------------------------
if ! skipped keyed; then
    log="$WORK/keyed-$LOG_LINES-$LOG_KEYS.log"
    [ -s "$log" ] || python3 benchmarks/serve/keyed_log.py machines/self-driving-car.script "$LOG_LINES" "$LOG_KEYS" > "$log"
    times=()
    for _ in $(seq 1 "$KEYED_RUNS"); do
        start=$(date +%s%N)
        "$SMRUN" machines/self-driving-car.yaml --by-key < "$log" > /dev/null || [ $? = 1 ]
        times+=($(( ($(date +%s%N) - start) / 1000000 )))
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    start=$(date +%s%N)
    "$SMRUN" machines/self-driving-car.yaml --by-key --format json < "$log" > /dev/null || [ $? = 1 ]
    json=$(( ($(date +%s%N) - start) / 1000000 ))
    say "run --by-key: $LOG_LINES lines over $LOG_KEYS keys: text $((LOG_LINES * 1000 / median)) inputs/s (median of $KEYED_RUNS, ${median} ms), json $((LOG_LINES * 1000 / json)) inputs/s (${json} ms)"
    store="$WORK/keyed.sqlite"
    rm -f "$store" "$store-wal" "$store-shm"
    start=$(date +%s%N)
    "$SMRUN" machines/self-driving-car.yaml --by-key --store "$store" < "$log" > /dev/null 2> "$WORK/keyed-store.err" || [ $? = 1 ]
    stored=$(( ($(date +%s%N) - start) / 1000000 ))
    say "run --by-key --store: $((LOG_LINES * 1000 / stored)) inputs/s (${stored} ms, $(grep -c committed "$WORK/keyed-store.err") commits, $(du -m "$store" | cut -f1) MB)"
    rm -f "$store" "$store-wal" "$store-shm"
fi
