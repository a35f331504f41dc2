/*
 * Times one run of a program for bench.sh.
 *
 * Usage: measure [-s STATUS] INPUT COMMAND [ARG...]
 *
 * Runs COMMAND with stdin from INPUT and stdout to /dev/null, and prints
 * `wall<TAB>user<TAB>sys<TAB>peak RSS KiB` (seconds to the microsecond). Exits 1 if
 * COMMAND fails: exits other than with status 0, or STATUS if given (smrun exits 1 when
 * some input was rejected). This replaces /usr/bin/time, whose 10 ms steps are too coarse for the
 * C baseline, and a Python timer, whose own memory would count in the child's peak
 * RSS: Linux carries the peak over from the process that forks into the one it execs.
 *
 * Build: cc -O2 -o measure measure.c
 */

#define _DEFAULT_SOURCE /* for wait4 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timespec t) { return (double)t.tv_sec + (double)t.tv_nsec / 1e9; }

int main(int argc, char **argv) {
    int ok_status = 0;
    if (argc > 2 && strcmp(argv[1], "-s") == 0) {
        ok_status = atoi(argv[2]);
        argv += 2;
        argc -= 2;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: measure [-s STATUS] INPUT COMMAND [ARG...]\n");
        return 2;
    }
    int input = open(argv[1], O_RDONLY);
    int null = open("/dev/null", O_WRONLY);
    if (input < 0 || null < 0) {
        perror(input < 0 ? argv[1] : "/dev/null");
        return 1;
    }

    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    if (child == 0) {
        dup2(input, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        close(input);
        close(null);
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status;
    struct rusage usage;
    while (wait4(child, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("wait4");
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);

    if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != ok_status)) {
        fprintf(stderr, "measure: %s failed (wait status %d)\n", argv[2], status);
        return 1;
    }
    printf("%.6f\t%ld.%06ld\t%ld.%06ld\t%ld\n", seconds(end) - seconds(start),
           (long)usage.ru_utime.tv_sec, (long)usage.ru_utime.tv_usec,
           (long)usage.ru_stime.tv_sec, (long)usage.ru_stime.tv_usec, usage.ru_maxrss);
    return 0;
}
