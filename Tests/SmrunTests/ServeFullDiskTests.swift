import Foundation
import Testing

/// A disk that fills up under a running server: the inputs it cannot commit are answered 500
/// and leave nothing behind, `/healthz` answers 503 naming the store and SQLite's error (so that
/// a load balancer or an orchestrator takes the server out), and once there is room again the
/// server serves and reports healthy by itself, its instances where the last answered input
/// left them. The full disk is made by a preloaded library: while the file `DISK_FULL_WHEN`
/// names exists, every write to a `-wal` file fails with `ENOSPC`, as the kernel's does.
@Suite(.servedEndToEnd) struct ServeFullDiskTests {
    @Test func aFullDiskFailsInputsAndHealthUntilThereIsRoomAgain() throws {
        let files = try TemporaryFiles()
        let full = files.path("disk-is-full")
        let server = try ServerProcess.start(
            files, machines: [ServedMachines.car], environment: ["LD_PRELOAD": try Self.fullDisk(files), "DISK_FULL_WHEN": full])
        let input = "/machines/self-driving-car/instances/car/inputs"
        try #require(try server.create("self-driving-car", key: "car")["version"] as? Int == 1)
        #expect(try server.post(input, #"{"input":"startEngine"}"#).status == 200)
        let started = try server.get("/machines/self-driving-car/instances/car").object()
        #expect(try server.get("/healthz").status == 200)

        _ = try files.file("disk-is-full", "")
        let refused = try server.post(input, #"{"input":"driveAround"}"#)
        #expect(refused.isProblem(500, naming: ["nothing was answered as done"]), "\(refused.status) \(refused.text)")
        let health = try server.get("/healthz")
        #expect(health.isProblem(503, naming: ["unavailable", "store.sqlite", "disk is full"]), "\(health.status) \(health.text)")
        #expect(health.header("Retry-After") == "1")
        let unchanged = try server.get("/machines/self-driving-car/instances/car").object()
        #expect(JSONValue.int(unchanged["version"]) == 2 && unchanged["state"] as? String == started["state"] as? String, "\(unchanged)")

        try FileManager.default.removeItem(atPath: full)
        #expect(try server.get("/healthz").status == 200, "an idle server learns that the disk has room again")
        let answered = try server.post(input, #"{"input":"driveAround"}"#)
        #expect(answered.status == 200, "\(answered.text)")
        let entries = try server.history("self-driving-car", "car")
        #expect(entries.map { $0["input"] as? String } == [nil, "startEngine", "driveAround"], "\(entries)")
        #expect(entries.map { JSONValue.int($0["seq"]) } == [1, 2, 3])
        let stopped = server.stop()
        #expect(stopped.map { !$0.signalled && $0.status == 0 } == true, "\(server.errorText)")
    }

    /// A library to preload whose `pwrite` and `pwrite64` fail with `ENOSPC` on a `-wal` file
    /// while the file `DISK_FULL_WHEN` names exists (SQLite writes its log with them).
    private static func fullDisk(_ files: TemporaryFiles) throws -> String {
        try files.preloadLibrary(
            "full_disk",
            source: """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <errno.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            #include <unistd.h>

            static int full(int fd) {
                const char *marker = getenv("DISK_FULL_WHEN");
                if (marker == NULL || access(marker, F_OK) != 0) return 0;
                char link[64], path[4096];
                snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
                ssize_t length = readlink(link, path, sizeof path - 1);
                if (length < 4) return 0;
                path[length] = 0;
                return strcmp(path + length - 4, "-wal") == 0;
            }

            ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) {
                if (full(fd)) { errno = ENOSPC; return -1; }
                ssize_t (*next)(int, const void *, size_t, off_t) = dlsym(RTLD_NEXT, "pwrite64");
                return next(fd, buffer, count, offset);
            }

            ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
                if (full(fd)) { errno = ENOSPC; return -1; }
                ssize_t (*next)(int, const void *, size_t, off_t) = dlsym(RTLD_NEXT, "pwrite");
                return next(fd, buffer, count, offset);
            }

            """)
    }
}
