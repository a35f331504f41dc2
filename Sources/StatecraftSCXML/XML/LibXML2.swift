import CLibXML2
import Statecraft

/// The functions of the system's libxml2 that ``XMLStreamReader`` calls, by their libxml2
/// names, from libxml2 loaded when the first document is read (CLibXML2 says why it is not
/// linked).
struct LibXML2: @unchecked Sendable {  // C function addresses, set once and never changed
    let xmlCreatePushParserCtxt:
        @convention(c) (UnsafeMutablePointer<xmlSAXHandler>?, UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?) -> xmlParserCtxtPtr?
    let xmlCtxtUseOptions: @convention(c) (xmlParserCtxtPtr, Int32) -> Int32
    let xmlParseChunk: @convention(c) (xmlParserCtxtPtr, UnsafePointer<CChar>?, Int32, Int32) -> Int32
    let xmlStopParser: @convention(c) (xmlParserCtxtPtr) -> Void
    let xmlFreeParserCtxt: @convention(c) (xmlParserCtxtPtr) -> Void
    let xmlSAX2GetLineNumber: @convention(c) (UnsafeMutableRawPointer?) -> Int32
    let xmlSAX2GetColumnNumber: @convention(c) (UnsafeMutableRawPointer?) -> Int32

    /// libxml2's functions, or why libxml2 could not be loaded: loaded once, by the first read
    /// (a lazily initialized global, safe from any thread).
    static let loaded: Result<LibXML2, SharedLibraryError> = Result { () throws(SharedLibraryError) in try load() }

    private static func load() throws(SharedLibraryError) -> LibXML2 {
        // libxml2.so.2 until libxml2 2.13, libxml2.so.16 from 2.14, which keeps what CLibXML2
        // declares as it was.
        let library = try SharedLibrary(firstOf: ["libxml2.so.2", "libxml2.so.16"])
        let functions = LibXML2(
            xmlCreatePushParserCtxt: try library.function("xmlCreatePushParserCtxt"),
            xmlCtxtUseOptions: try library.function("xmlCtxtUseOptions"),
            xmlParseChunk: try library.function("xmlParseChunk"),
            xmlStopParser: try library.function("xmlStopParser"),
            xmlFreeParserCtxt: try library.function("xmlFreeParserCtxt"),
            xmlSAX2GetLineNumber: try library.function("xmlSAX2GetLineNumber"),
            xmlSAX2GetColumnNumber: try library.function("xmlSAX2GetColumnNumber"))
        // libxml2 2.9's initialization is not safe to run from two threads at once (tests and
        // apps read documents in parallel): it runs here, once, before any reader is made.
        let initialize: @convention(c) () -> Void = try library.function("xmlInitParser")
        initialize()
        return functions
    }
}
