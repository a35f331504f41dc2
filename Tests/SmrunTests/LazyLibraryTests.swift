import Foundation
import Testing

/// smrun loads libxml2 only to read SCXML and libedit only for `smrun repl` at a terminal
/// (docs/development.md, what the binary needs at run time): neither is linked, so a run that needs neither
/// starts without them, and one that needs a missing library says which, and why.
@Suite struct LazyLibraryTests {
    static let env = ExternalTool(name: "env", install: "apt-get install coreutils")

    /// The libraries the dynamic loader maps at start, as `ldd` lists them.
    @Test func startsWithoutLibxml2OrLibedit() throws {
        let smrun = try Paths.smrun().path
        let listing = try Self.env.run(["LD_TRACE_LOADED_OBJECTS=1", smrun])
        try #require(listing.status == 0 && listing.text.contains("libc.so"), "\(listing.text)\(listing.errorText)")
        for library in ["libxml2", "libicu", "liblzma", "libedit", "libtinfo"] {
            #expect(!listing.text.contains(library), "\(library) is loaded at start:\n\(listing.text)")
        }
    }

    @Test func machineFileRunsWhereLibxml2AndLibeditCannotBeLoaded() throws {
        let files = try TemporaryFiles()
        let run = try Self.env.run(
            ["LD_PRELOAD=\(try Self.libraryHider(files))", try Paths.smrun().path, "machines/traffic-light.yaml", "--send", "green"])
        #expect(run.status == 0, "\(run.errorText)")
        #expect(run.text == "start: -> red / stop\ngreen: red -> green / go\n", "\(run.text)")
    }

    @Test func scxmlDocumentWithoutLibxml2NamesTheLibrary() throws {
        let files = try TemporaryFiles()
        let run = try Self.env.run(
            ["LD_PRELOAD=\(try Self.libraryHider(files))", try Paths.smrun().path, "validate", "machines/microwave.scxml"])
        #expect(run.status == 2, "\(run.text)\(run.errorText)")
        #expect(
            run.text.contains(
                "machines/microwave.scxml: error: reading SCXML needs the system's libxml2 (Debian: libxml2), which could not be loaded: libxml2.so.2"
            ), "\(run.text)")
        #expect(run.text.contains("[unreadable-file]"), "\(run.text)")
    }

    @Test func replAtATerminalWithoutLibeditNamesTheLibrary() throws {
        let files = try TemporaryFiles()
        let terminal = try TerminalSession(
            ["repl", "machines/traffic-light.yaml"],
            environment: ["HOME": files.directory.path, "TERM": "xterm", "LD_PRELOAD": try Self.libraryHider(files)])
        let screen = try terminal.waitFor("smrun to exit") { $0.last?.hasPrefix("EXITED=") == true }
        #expect(screen.last == "EXITED=2", "\(screen)")
        // The message wraps at the terminal's width, where a blank may be dropped.
        let message = "smrun: line editing at a terminal needs the system's libedit (Debian: libedit2), which could not be loaded: libedit.so.2"
        #expect(screen.joined().filter { $0 != " " }.contains(message.filter { $0 != " " }), "\(screen)")
    }

    /// A library to preload that makes `dlopen` fail for libxml2 and libedit, as on a system
    /// without them (their loading code sees what it would see there: a null handle).
    private static func libraryHider(_ files: TemporaryFiles) throws -> String {
        try files.preloadLibrary(
            "hide",
            source: """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <string.h>

            void *dlopen(const char *name, int flags) {
                if (name != NULL && (strncmp(name, "libxml2", 7) == 0 || strncmp(name, "libedit", 7) == 0)) return NULL;
                void *(*next)(const char *, int) = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
                return next(name, flags);
            }

            """)
    }
}
