/*
 * Baseline for the SCXML load benchmark: libxml2's bare streaming read of a file.
 *
 * Usage: xml_reader [-t] FILE
 *
 * Reads FILE into memory and pulls every node, and every attribute of every element, out of
 * libxml2's xmlTextReader with the options smrun's SCXML reader uses, building nothing. Prints
 * the number of nodes; with -t, instead, the time that reading and parsing took in-process, in
 * measure.c's format: `wall<TAB>user<TAB>sys<TAB>peak RSS KiB`. Exits 1 on a syntax error.
 *
 * Build: cc -O2 -o xml_reader xml_reader.c $(pkg-config --cflags --libs libxml-2.0)
 */

#include <libxml/xmlreader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double seconds(struct timespec t) { return (double)t.tv_sec + (double)t.tv_nsec / 1e9; }
static double tv_seconds(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

int main(int argc, char **argv) {
    int timed = argc == 3 && strcmp(argv[1], "-t") == 0;
    if (argc != 2 + timed) {
        fprintf(stderr, "usage: xml_reader [-t] FILE\n");
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
    char *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) {
        perror(path);
        return 1;
    }
    fclose(file);

    xmlTextReaderPtr reader = xmlReaderForMemory(bytes, (int)size, NULL, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA);
    if (!reader) {
        fprintf(stderr, "xml_reader: libxml2 could not start\n");
        return 1;
    }
    long nodes = 0;
    int status;
    while ((status = xmlTextReaderRead(reader)) == 1) {
        nodes++;
        if (xmlTextReaderNodeType(reader) == XML_READER_TYPE_ELEMENT) {
            while (xmlTextReaderMoveToNextAttribute(reader) == 1) {
                if (xmlTextReaderConstValue(reader)) nodes++;
            }
            xmlTextReaderMoveToElement(reader);
        }
    }
    xmlFreeTextReader(reader);
    free(bytes);
    if (status != 0) {
        fprintf(stderr, "%s: not well-formed XML\n", path);
        return 1;
    }

    clock_gettime(CLOCK_MONOTONIC, &end);
    getrusage(RUSAGE_SELF, &after);
    if (timed) {
        printf("%.6f\t%.6f\t%.6f\t%ld\n", seconds(end) - seconds(start),
               tv_seconds(after.ru_utime) - tv_seconds(before.ru_utime),
               tv_seconds(after.ru_stime) - tv_seconds(before.ru_stime), after.ru_maxrss);
    } else {
        printf("%ld nodes\n", nodes);
    }
    return 0;
}
