/*
 * Baseline: the self-driving car (machines/self-driving-car.yaml) as a dense table in C.
 *
 * Reads an input script on stdin, one `INPUT` or `INPUT ARG` a line, and prints smrun's
 * text output for each line. Input goes through a 1 MiB read(2) buffer and output
 * through a 1 MiB buffer; lines are parsed by hand. next_state[state][input] says where
 * each input goes, and each (state, input) pair's text after `INPUT[ ARG]: ` is built
 * once at start-up. Effects update the context as smrun's do. String arguments stay in
 * their JSON form, undecoded (gen_script.py writes none with escapes).
 *
 * Build: cc -O2 -o car_table car_table.c
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* LINE_PREFIX: room for `line N: ` before a rejection. */
enum { BUFFER_SIZE = 1 << 20, MAX_LINE = 1 << 16, MAX_SUFFIX = 256, LINE_PREFIX = 32 };

enum state {
    UNSTARTED, DRIVING_AROUND, DRIVING_TO_LOCATION, PARKED, PICKING_UP_PASSENGERS,
    DROPPING_OFF_PASSENGERS, STATE_COUNT
};
static const char *const state_names[STATE_COUNT] = {
    "unstarted", "drivingAround", "drivingToLocation", "parked", "pickingUpPassengers",
    "droppingOffPassengers",
};

enum input {
    START_ENGINE, DRIVE_AROUND, PARK, PICK_UP_PASSENGERS, PASSENGERS_HAVE_ENTERED,
    DRIVE_TO_LOCATION, DROP_OFF_PASSENGERS, NO_MAP_INPUT, NO_FAIL_INPUT, INPUT_COUNT
};
static const char *const input_names[INPUT_COUNT] = {
    "startEngine", "driveAround", "park", "pickUpPassengers", "passengersHaveEntered",
    "driveToLocation", "dropOffPassengers", "noMapInput", "noFailInput",
};

enum arg_kind { NO_ARG, INT_ARG, STRING_ARG };
static const enum arg_kind arg_kinds[INPUT_COUNT] = {
    [PASSENGERS_HAVE_ENTERED] = INT_ARG, [DRIVE_TO_LOCATION] = STRING_ARG,
};

enum effect { NO_EFFECT, PICKED_UP_PASSENGERS, SET_LOCATION, DROPPED_OFF_PASSENGERS };
static const char *const effect_names[] = {
    [PICKED_UP_PASSENGERS] = "pickedUpPassengers", [SET_LOCATION] = "driveToLocation",
    [DROPPED_OFF_PASSENGERS] = "dropOffPassengers",
};

/* Where each input goes from each state; NONE: no transition, the input is rejected. */
enum { NONE = -1 };
static signed char next_state[STATE_COUNT][INPUT_COUNT];
static enum effect effects[STATE_COUNT][INPUT_COUNT];

/* The transitions of the machine file. */
static void build_table(void) {
    memset(next_state, NONE, sizeof next_state);
    next_state[UNSTARTED][START_ENGINE] = PARKED;
    next_state[PARKED][DRIVE_AROUND] = DRIVING_AROUND;
    next_state[DROPPING_OFF_PASSENGERS][DRIVE_AROUND] = DRIVING_AROUND;
    next_state[DRIVING_AROUND][PARK] = PARKED;
    next_state[DRIVING_TO_LOCATION][PARK] = PARKED;
    next_state[PARKED][PICK_UP_PASSENGERS] = PICKING_UP_PASSENGERS;
    next_state[PICKING_UP_PASSENGERS][PASSENGERS_HAVE_ENTERED] = PICKING_UP_PASSENGERS;
    effects[PICKING_UP_PASSENGERS][PASSENGERS_HAVE_ENTERED] = PICKED_UP_PASSENGERS;
    next_state[PICKING_UP_PASSENGERS][DRIVE_TO_LOCATION] = DRIVING_TO_LOCATION;
    effects[PICKING_UP_PASSENGERS][DRIVE_TO_LOCATION] = SET_LOCATION;
    next_state[PARKED][DROP_OFF_PASSENGERS] = DROPPING_OFF_PASSENGERS;
    effects[PARKED][DROP_OFF_PASSENGERS] = DROPPED_OFF_PASSENGERS;
    for (int s = 0; s < STATE_COUNT; s++) next_state[s][NO_FAIL_INPUT] = (signed char)s;
}

/* The output after `INPUT[ ARG]: ` for each (state, input), newline included. */
static char suffixes[STATE_COUNT][INPUT_COUNT][MAX_SUFFIX];
static size_t suffix_lengths[STATE_COUNT][INPUT_COUNT];

static void build_suffixes(void) {
    for (int s = 0; s < STATE_COUNT; s++) {
        for (int i = 0; i < INPUT_COUNT; i++) {
            char *out = suffixes[s][i];
            int n;
            if (next_state[s][i] == NONE) {
                n = snprintf(out, MAX_SUFFIX,
                             "%s: rejected: no-transition: no transition for '%s' from '%s'\n",
                             state_names[s], input_names[i], state_names[s]);
            } else if (effects[s][i] != NO_EFFECT) {
                n = snprintf(out, MAX_SUFFIX, "%s -> %s / %s\n", state_names[s],
                             state_names[(int)next_state[s][i]], effect_names[effects[s][i]]);
            } else {
                n = snprintf(out, MAX_SUFFIX, "%s -> %s\n", state_names[s],
                             state_names[(int)next_state[s][i]]);
            }
            suffix_lengths[s][i] = (size_t)n;
        }
    }
}

/* The machine's context. Not static, so that the compiler keeps the effects' stores. */
long passengers;
char location[MAX_LINE];
size_t location_length;

static unsigned long line_number;

static char output[BUFFER_SIZE];
static size_t output_length;

static void flush_output(void) {
    size_t done = 0;
    while (done < output_length) {
        ssize_t n = write(STDOUT_FILENO, output + done, output_length - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            perror("car_table: write");
            exit(1);
        }
        done += (size_t)n;
    }
    output_length = 0;
}

/* Stops at a malformed line, after printing the output of the lines before it. */
static void fail(const char *message) {
    flush_output();
    fprintf(stderr, "car_table: line %lu: %s\n", line_number, message);
    exit(1);
}

static void put(const char *bytes, size_t length) {
    memcpy(output + output_length, bytes, length);
    output_length += length;
}

/* Which input `name` is, or INPUT_COUNT if none: length and first letter, then a check. */
static enum input find_input(const char *name, size_t length) {
    enum input input;
    switch (length) {
    case 4: input = PARK; break;
    case 10: input = NO_MAP_INPUT; break;
    case 11:
        input = name[0] == 's' ? START_ENGINE : name[0] == 'd' ? DRIVE_AROUND : NO_FAIL_INPUT;
        break;
    case 15: input = DRIVE_TO_LOCATION; break;
    case 16: input = PICK_UP_PASSENGERS; break;
    case 17: input = DROP_OFF_PASSENGERS; break;
    case 21: input = PASSENGERS_HAVE_ENTERED; break;
    default: return INPUT_COUNT;
    }
    return memcmp(name, input_names[input], length) == 0 ? input : INPUT_COUNT;
}

/* Writes `value` in decimal at `out`, returning the number of bytes written. */
static size_t format_long(long value, char *out) {
    char digits[24];
    size_t n = 0, length = 0;
    unsigned long magnitude = value < 0 ? 0UL - (unsigned long)value : (unsigned long)value;
    do {
        digits[n++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude != 0);
    if (value < 0) out[length++] = '-';
    while (n > 0) out[length++] = digits[--n];
    return length;
}

/* Parses a decimal int, optionally negative, that fills all of [text, end). */
static long parse_long(const char *text, const char *end) {
    int negative = text < end && *text == '-';
    const char *p = text + negative;
    if (p == end || end - p > 18) fail("bad int argument");
    long value = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9') fail("bad int argument");
        value = value * 10 + (*p - '0');
    }
    return negative ? -value : value;
}

static enum state state = UNSTARTED;

/* Runs one input line, [line, end) without its newline. */
static void run_line(const char *line, const char *end) {
    line_number++;
    if (end - line >= MAX_LINE) fail("line too long");
    const char *space = memchr(line, ' ', (size_t)(end - line));
    const char *name_end = space ? space : end;
    enum input input = find_input(line, (size_t)(name_end - line));
    if (input == INPUT_COUNT) fail("unknown input");

    if (output_length + LINE_PREFIX + MAX_LINE + MAX_SUFFIX > BUFFER_SIZE) flush_output();
    if (next_state[state][input] == NONE) {
        /* A rejection names its script line: `line N: `. */
        put("line ", 5);
        output_length += format_long((long)line_number, output + output_length);
        put(": ", 2);
    }
    put(line, (size_t)(name_end - line));

    long number = 0;
    const char *arg = name_end + 1;
    switch (arg_kinds[input]) {
    case NO_ARG:
        if (space) fail("input takes no argument");
        break;
    case INT_ARG:
        if (!space) fail("missing int argument");
        number = parse_long(arg, end);
        output[output_length++] = ' ';
        output_length += format_long(number, output + output_length);
        break;
    case STRING_ARG:
        if (!space || end - arg < 2 || arg[0] != '"' || end[-1] != '"') fail("bad string argument");
        output[output_length++] = ' ';
        put(arg, (size_t)(end - arg));
        break;
    }
    output[output_length++] = ':';
    output[output_length++] = ' ';
    put(suffixes[state][input], suffix_lengths[state][input]);

    if (next_state[state][input] == NONE) return;
    switch (effects[state][input]) {
    case NO_EFFECT: break;
    case PICKED_UP_PASSENGERS: passengers = number; break;
    case SET_LOCATION:
        location_length = (size_t)(end - arg);
        memcpy(location, arg, location_length);
        break;
    case DROPPED_OFF_PASSENGERS: passengers = 0; break;
    }
    state = (enum state)next_state[state][input];
}

static char input_buffer[BUFFER_SIZE];

int main(void) {
    build_table();
    build_suffixes();
    size_t held = 0; /* bytes of an unfinished line at the start of input_buffer */
    for (;;) {
        ssize_t n = read(STDIN_FILENO, input_buffer + held, BUFFER_SIZE - held);
        if (n < 0) {
            if (errno == EINTR) continue;
            perror("car_table: read");
            return 1;
        }
        if (n == 0) break;
        const char *start = input_buffer, *end = input_buffer + held + n;
        for (const char *newline; (newline = memchr(start, '\n', (size_t)(end - start)));
             start = newline + 1) {
            run_line(start, newline);
        }
        held = (size_t)(end - start);
        if (held >= MAX_LINE) {
            line_number++;
            fail("line too long");
        }
        memmove(input_buffer, start, held);
    }
    if (held > 0) run_line(input_buffer, input_buffer + held); /* no final newline */
    flush_output();
    return 0;
}
