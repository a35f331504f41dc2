import CLibXML2
import Statecraft

/// The functions of the system's libxml2 that ``XMLStreamReader`` calls, by their libxml2
/// names, from libxml2 loaded when the first document is read (CLibXML2 says why it is not
/// linked).
struct LibXML2: @unchecked Sendable {  // C function addresses, set once and never changed
    let xmlReaderForMemory:
        @convention(c) (UnsafePointer<CChar>, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> xmlTextReaderPtr?
    let xmlFreeTextReader: @convention(c) (xmlTextReaderPtr) -> Void
    let xmlTextReaderSetStructuredErrorHandler: @convention(c) (xmlTextReaderPtr, xmlStructuredErrorFunc?, UnsafeMutableRawPointer?) -> Void
    let xmlTextReaderRead: @convention(c) (xmlTextReaderPtr) -> Int32
    let xmlTextReaderNodeType: @convention(c) (xmlTextReaderPtr) -> Int32
    let xmlTextReaderGetParserLineNumber: @convention(c) (xmlTextReaderPtr) -> Int32
    let xmlTextReaderIsEmptyElement: @convention(c) (xmlTextReaderPtr) -> Int32
    let xmlTextReaderConstValue: @convention(c) (xmlTextReaderPtr) -> UnsafePointer<xmlChar>?
    let xmlTextReaderCurrentNode: @convention(c) (xmlTextReaderPtr) -> UnsafeMutablePointer<xmlNode>?
    let xmlGetLineNo: @convention(c) (UnsafePointer<xmlNode>) -> Int

    /// libxml2's functions, or why libxml2 could not be loaded: loaded once, by the first read
    /// (a lazily initialized global, safe from any thread).
    static let loaded: Result<LibXML2, SharedLibraryError> = Result { () throws(SharedLibraryError) in try load() }

    private static func load() throws(SharedLibraryError) -> LibXML2 {
        // libxml2.so.2 until libxml2 2.13, libxml2.so.16 from 2.14, which keeps what CLibXML2
        // declares as it was.
        let library = try SharedLibrary(firstOf: ["libxml2.so.2", "libxml2.so.16"])
        let functions = LibXML2(
            xmlReaderForMemory: try library.function("xmlReaderForMemory"),
            xmlFreeTextReader: try library.function("xmlFreeTextReader"),
            xmlTextReaderSetStructuredErrorHandler: try library.function("xmlTextReaderSetStructuredErrorHandler"),
            xmlTextReaderRead: try library.function("xmlTextReaderRead"),
            xmlTextReaderNodeType: try library.function("xmlTextReaderNodeType"),
            xmlTextReaderGetParserLineNumber: try library.function("xmlTextReaderGetParserLineNumber"),
            xmlTextReaderIsEmptyElement: try library.function("xmlTextReaderIsEmptyElement"),
            xmlTextReaderConstValue: try library.function("xmlTextReaderConstValue"),
            xmlTextReaderCurrentNode: try library.function("xmlTextReaderCurrentNode"),
            xmlGetLineNo: try library.function("xmlGetLineNo"))
        // libxml2 2.9's initialization is not safe to run from two threads at once (tests and
        // apps read documents in parallel): it runs here, once, before any reader is made.
        let initialize: @convention(c) () -> Void = try library.function("xmlInitParser")
        initialize()
        return functions
    }
}
