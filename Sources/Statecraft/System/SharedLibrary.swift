#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system library loaded while the program runs (`dlopen`) rather than linked, so that only
/// the runs that use it map it: libxml2 for SCXML documents, libedit for `smrun repl` at a
/// terminal. It stays loaded until the process ends.
package struct SharedLibrary {
    private let handle: UnsafeMutableRawPointer
    /// The file name it was found by (`libxml2.so.2`).
    package let name: String

    /// Loads the first of `names` (a library's names on different systems) that the dynamic
    /// loader finds; when none is found, the error is the loader's reason for the first.
    package init(firstOf names: [String]) throws(SharedLibraryError) {
        var firstReason: String?
        for name in names {
            // dlerror() keeps the last error until it is read: clear one left by earlier code (a
            // sanitizer's runtime looking up its hooks, say), so the reason read below is this one.
            _ = dlerror()
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                self.handle = handle
                self.name = name
                return
            }
            // The loader's message names the library; a failure it did not record is named here.
            let reason = dlerror().map { String(cString: $0) } ?? "\(name): cannot be loaded"
            if firstReason == nil { firstReason = reason }
        }
        throw SharedLibraryError(message: firstReason ?? "no library name given")
    }

    /// The library's function `symbol`, as `Function`: the `@convention(c)` type of its C
    /// declaration, which the caller vouches for.
    package func function<Function>(_ symbol: String) throws(SharedLibraryError) -> Function {
        guard let address = dlsym(handle, symbol) else {
            throw SharedLibraryError(message: "\(name) has no function \(symbol)")
        }
        return unsafeBitCast(address, to: Function.self)
    }
}

/// Why a ``SharedLibrary`` or one of its functions could not be loaded.
package struct SharedLibraryError: Error, Sendable {
    /// The dynamic loader's message, which names the library.
    @usableFromInline package let message: String
}
