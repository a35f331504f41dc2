import Testing

extension TemporaryFiles {
    /// Builds the C `source` into `NAME.so` among these files, with the toolchain's clang: a
    /// library for `LD_PRELOAD` that wraps libc's functions (each finds the real one with
    /// `dlsym(RTLD_NEXT, ...)`). Returns its path; fails the test with clang's messages if it
    /// does not build.
    func preloadLibrary(_ name: String, source: String) throws -> String {
        let sourcePath = try file("\(name).c", source)
        let library = path("\(name).so")
        let build = try ExternalTool.clang.run(["-shared", "-fPIC", "-o", library, sourcePath, "-ldl"])
        try #require(build.status == 0, "\(build.errorText)")
        return library
    }
}
