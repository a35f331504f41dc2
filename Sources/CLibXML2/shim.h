// The part of the system's libxml2 that Statecraft's SCXML reader uses, declared here as
// libxml2's own headers declare it (the ABI of libxml2.so.2, unchanged in libxml2.so.16): its
// types and constants. libxml2 is not linked: the reader loads it with dlopen on first use
// (LibXML2.swift) and calls its functions through the addresses found there, so that a
// program that never reads SCXML never maps libxml2, nor the ICU, lzma and zlib it brings.
// Not linking is also why libxml2's headers are not used: reaching them (/usr/include/libxml2)
// takes pkg-config, through which SwiftPM would link every program against the library.
//
// The structs keep libxml2's layout whole: libxml2 copies the callbacks' struct and builds the
// errors' struct that the reader reads.
#ifndef STATECRAFT_CLIBXML2_H
#define STATECRAFT_CLIBXML2_H

#pragma clang assume_nonnull begin

typedef unsigned char xmlChar;

/// A parser's state (parser.h), opaque: the reader reads nothing of it but through libxml2's
/// functions.
typedef struct _xmlParserCtxt *xmlParserCtxtPtr;

/// What the parser calls as it reads (parser.h): an element's start tag, with its attributes
/// as five pointers each (local name, prefix, namespace URI, the value's start and end), its
/// end tag, text, comments and processing instructions, a document type declaration, an entity
/// reference.
typedef void (*startElementNsSAX2Func)(
    void *_Nullable ctx, const xmlChar *localname, const xmlChar *_Nullable prefix, const xmlChar *_Nullable URI,
    int nb_namespaces, const xmlChar *_Nullable *_Nullable namespaces, int nb_attributes, int nb_defaulted,
    const xmlChar *_Nullable *_Nullable attributes);
typedef void (*endElementNsSAX2Func)(
    void *_Nullable ctx, const xmlChar *localname, const xmlChar *_Nullable prefix, const xmlChar *_Nullable URI);
typedef void (*charactersSAXFunc)(void *_Nullable ctx, const xmlChar *ch, int len);
typedef void (*commentSAXFunc)(void *_Nullable ctx, const xmlChar *_Nullable value);
typedef void (*processingInstructionSAXFunc)(void *_Nullable ctx, const xmlChar *_Nullable target, const xmlChar *_Nullable data);
typedef void (*internalSubsetSAXFunc)(
    void *_Nullable ctx, const xmlChar *_Nullable name, const xmlChar *_Nullable ExternalID, const xmlChar *_Nullable SystemID);
typedef void (*referenceSAXFunc)(void *_Nullable ctx, const xmlChar *_Nullable name);

struct _xmlError;
typedef void (*xmlStructuredErrorFunc)(void *_Nullable userData, struct _xmlError *_Nullable error);

/// The parser's callbacks (parser.h), in libxml2's order; those the reader leaves out are
/// declared as plain pointers.
typedef struct _xmlSAXHandler {
    internalSubsetSAXFunc _Nullable internalSubset;
    void *_Nullable isStandalone;
    void *_Nullable hasInternalSubset;
    void *_Nullable hasExternalSubset;
    void *_Nullable resolveEntity;
    void *_Nullable getEntity;
    void *_Nullable entityDecl;
    void *_Nullable notationDecl;
    void *_Nullable attributeDecl;
    void *_Nullable elementDecl;
    void *_Nullable unparsedEntityDecl;
    void *_Nullable setDocumentLocator;
    void *_Nullable startDocument;
    void *_Nullable endDocument;
    void *_Nullable startElement;
    void *_Nullable endElement;
    referenceSAXFunc _Nullable reference;
    charactersSAXFunc _Nullable characters;
    charactersSAXFunc _Nullable ignorableWhitespace;
    processingInstructionSAXFunc _Nullable processingInstruction;
    commentSAXFunc _Nullable comment;
    void *_Nullable warning;
    void *_Nullable error;
    void *_Nullable fatalError;
    void *_Nullable getParameterEntity;
    charactersSAXFunc _Nullable cdataBlock;
    void *_Nullable externalSubset;
    unsigned int initialized;
    void *_Nullable _private;
    startElementNsSAX2Func _Nullable startElementNs;
    endElementNsSAX2Func _Nullable endElementNs;
    xmlStructuredErrorFunc _Nullable serror;
} xmlSAXHandler;

/// `initialized` of a handler with the fields from `_private` on (parser.h).
#define XML_SAX2_MAGIC 0xDEEDBEAF

/// How bad an error is (xmlerror.h).
typedef enum {
    XML_ERR_NONE = 0,
    XML_ERR_WARNING = 1,
    XML_ERR_ERROR = 2,
    XML_ERR_FATAL = 3
} xmlErrorLevel;

/// An error libxml2 reports (xmlerror.h): `line` and `int2` (the column) say where.
typedef struct _xmlError {
    int domain;
    int code;
    char *_Nullable message;
    xmlErrorLevel level;
    char *_Nullable file;
    int line;
    char *_Nullable str1;
    char *_Nullable str2;
    char *_Nullable str3;
    int int1;
    int int2;
    void *_Nullable ctxt;
    void *_Nullable node;
} xmlError;

/// The parser options the reader sets (parser.h).
typedef enum {
    XML_PARSE_NONET = 1 << 11,
    XML_PARSE_NOCDATA = 1 << 14
} xmlParserOption;

#pragma clang assume_nonnull end

#endif
