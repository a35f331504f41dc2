import CLibEdit
import Statecraft

/// The system's libedit, loaded when `smrun repl` first starts at a terminal (CLibEdit says why
/// it is not linked): the addresses of the functions smrun calls, for CLibEdit's functions.
struct LibEdit: @unchecked Sendable {  // C function addresses, set once and never changed
    let functions: smrun_libedit

    /// libedit's functions, or why libedit could not be loaded: loaded once (a lazily
    /// initialized global).
    static let loaded: Result<LibEdit, SharedLibraryError> = Result { () throws(SharedLibraryError) in try load() }

    private static func load() throws(SharedLibraryError) -> LibEdit {
        // libedit.so.2 on Debian and Ubuntu, libedit.so.0 on Fedora and Arch.
        let library = try SharedLibrary(firstOf: ["libedit.so.2", "libedit.so.0"])
        return LibEdit(
            functions: smrun_libedit(
                el_init: try library.function("el_init"),
                el_end: try library.function("el_end"),
                el_gets: try library.function("el_gets"),
                el_line: try library.function("el_line"),
                el_insertstr: try library.function("el_insertstr"),
                el_source: try library.function("el_source"),
                el_set: try library.function("el_set"),
                el_get: try library.function("el_get"),
                history_init: try library.function("history_init"),
                history_end: try library.function("history_end"),
                history: try library.function("history")))
    }
}
