import Foundation
import Testing

/// An input is answered only once its commit is on disk (issue 32, "durable means durable"):
/// the store's writer syncs the write-ahead log after it writes a commit, and before the answer
/// goes out. A kill -9 cannot show this (the kernel keeps what was written for a process that
/// dies); a power loss would. So the test watches the real server's system calls: a preloaded
/// library logs each write and sync of the `-wal` file made by the writer's thread, and after
/// every answer the writer's last one must be a sync.
@Suite(.servedEndToEnd) struct ServeCommitSyncTests {
    @Test func everyAnsweredInputsCommitIsSyncedBeforeItsAnswer() throws {
        let files = try TemporaryFiles()
        let log = files.path("wal-calls.log")
        let server = try ServerProcess.start(
            files, machines: [ServedMachines.car], environment: ["LD_PRELOAD": try Self.callLogger(files), "WAL_CALL_LOG": log])
        let created = try server.post("/machines/self-driving-car/instances", #"{"key":"car"}"#)
        try #require(created.status == 201, "\(created.text)")
        var seen = 0
        for input in ["startEngine", "driveAround", "park", "pickUpPassengers", "noFailInput", "noFailInput"] {
            let answer = try server.post("/machines/self-driving-car/instances/car/inputs", #"{"input":"\#(input)"}"#)
            try #require(answer.status == 200, "\(answer.text)")
            // No log at all means that no call was logged: say what the directory and the
            // server show (a failure once seen in a whole `make test`, never alone).
            guard let text = try? String(contentsOfFile: log, encoding: .utf8) else {
                let listing = (try? FileManager.default.contentsOfDirectory(atPath: files.directory.path)) ?? []
                server.stop()
                let others = (try? String(contentsOfFile: log + ".others", encoding: .utf8)) ?? ""
                Issue.record(
                    "no call of the writer was logged by \(input); the directory holds \(listing); other threads' calls: \(others); the server said: \(server.errorText)")
                return
            }
            let calls = text.split(separator: "\n")
            let since = calls.dropFirst(seen)
            #expect(since.contains("write"), "the writer wrote nothing to the log for \(input): \(since)")
            #expect(since.last == "sync", "\(input) was answered before its commit was synced: the writer's calls since the last answer were \(since)")
            seen = calls.count
        }
    }

    /// A library to preload that logs, to the file `WAL_CALL_LOG` names, each `pwrite` of a
    /// `-wal` file (`write`) and each `fsync` or `fdatasync` of one (`sync`) that the thread
    /// named `sqlite-writer` makes (SQLite calls libc's functions, which the library wraps);
    /// other threads' calls, each with the thread's name, go to `WAL_CALL_LOG.others`.
    private static func callLogger(_ files: TemporaryFiles) throws -> String {
        try files.preloadLibrary(
            "wal_calls",
            source: """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <fcntl.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            #include <sys/prctl.h>
            #include <unistd.h>

            static void note(int fd, const char *what) {
                char name[16] = {0};
                prctl(PR_GET_NAME, name, 0, 0, 0);
                char link[64], path[4096];
                snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
                ssize_t length = readlink(link, path, sizeof path - 1);
                if (length < 4) return;
                path[length] = 0;
                if (strcmp(path + length - 4, "-wal") != 0) return;
                const char *log = getenv("WAL_CALL_LOG");
                if (log == NULL) return;
                // Other threads' calls go to LOG.others, with the thread's name.
                int mine = strcmp(name, "sqlite-writer") == 0;
                char others[4096];
                snprintf(others, sizeof others, "%s.others", log);
                int out = open(mine ? log : others, O_WRONLY | O_APPEND | O_CREAT, 0600);
                if (out < 0) return;
                char line[40];
                int count = mine ? snprintf(line, sizeof line, "%s\\n", what) : snprintf(line, sizeof line, "%s %s\\n", what, name);
                if (write(out, line, count) != count) abort();
                close(out);
            }

            ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) {
                ssize_t (*next)(int, const void *, size_t, off_t) = dlsym(RTLD_NEXT, "pwrite64");
                ssize_t written = next(fd, buffer, count, offset);
                note(fd, "write");
                return written;
            }

            ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
                ssize_t (*next)(int, const void *, size_t, off_t) = dlsym(RTLD_NEXT, "pwrite");
                ssize_t written = next(fd, buffer, count, offset);
                note(fd, "write");
                return written;
            }

            int fdatasync(int fd) {
                int (*next)(int) = dlsym(RTLD_NEXT, "fdatasync");
                int result = next(fd);
                note(fd, "sync");
                return result;
            }

            int fsync(int fd) {
                int (*next)(int) = dlsym(RTLD_NEXT, "fsync");
                int result = next(fd);
                note(fd, "sync");
                return result;
            }

            """)
    }
}
