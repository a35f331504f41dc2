/*
 * Baseline for the load benchmark: libyaml's bare event parse of a file.
 *
 * Usage: yaml_events [-t] FILE
 *
 * Reads FILE into memory and pulls every event out of libyaml's parser, as smrun's
 * YAMLParser does (UTF-8, from a string), building nothing. Prints the number of events;
 * with -t, instead, the time that reading and parsing took in-process, in measure.c's
 * format: `wall<TAB>user<TAB>sys<TAB>peak RSS KiB`. Exits 1 on a syntax error.
 *
 * Build: cc -O2 -o yaml_events yaml_events.c -lyaml
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <yaml.h>

static double seconds(struct timespec t) { return (double)t.tv_sec + (double)t.tv_nsec / 1e9; }
static double tv_seconds(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

int main(int argc, char **argv) {
    int timed = argc == 3 && strcmp(argv[1], "-t") == 0;
    if (argc != 2 + timed) {
        fprintf(stderr, "usage: yaml_events [-t] FILE\n");
        return 2;
    }
    const char *path = argv[1 + timed];
    struct timespec start, end;
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    clock_gettime(CLOCK_MONOTONIC, &start);

    FILE *file = fopen(path, "rb");
    if (!file) {
        perror(path);
        return 1;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    unsigned char *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) {
        perror(path);
        return 1;
    }
    fclose(file);

    yaml_parser_t parser;
    yaml_event_t event;
    long events = 0;
    if (!yaml_parser_initialize(&parser)) {
        fprintf(stderr, "yaml_events: libyaml could not be initialised\n");
        return 1;
    }
    yaml_parser_set_input_string(&parser, bytes, (size_t)size);
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
    for (;;) {
        if (!yaml_parser_parse(&parser, &event)) {
            fprintf(stderr, "%s:%lu:%lu: %s\n", path, (unsigned long)parser.problem_mark.line + 1,
                    (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "syntax error");
            return 1;
        }
        events++;
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (done) break;
    }
    yaml_parser_delete(&parser);
    free(bytes);

    clock_gettime(CLOCK_MONOTONIC, &end);
    getrusage(RUSAGE_SELF, &after);
    if (timed) {
        printf("%.6f\t%.6f\t%.6f\t%ld\n", seconds(end) - seconds(start),
               tv_seconds(after.ru_utime) - tv_seconds(before.ru_utime),
               tv_seconds(after.ru_stime) - tv_seconds(before.ru_stime), after.ru_maxrss);
    } else {
        printf("%ld events\n", events);
    }
    return 0;
}
