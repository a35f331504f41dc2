// The part of the system's libxml2 that Statecraft's SCXML reader uses, declared here as
// libxml2's own headers declare it (the ABI of libxml2.so.2, unchanged in libxml2.so.16): its
// types and constants. libxml2 is not linked: the reader loads it with dlopen on first use
// (LibXML2.swift) and calls its functions through the addresses found there, so that a
// program that never reads SCXML never maps libxml2, nor the ICU, lzma and zlib it brings.
// Not linking is also why libxml2's headers are not used: reaching them (/usr/include/libxml2)
// takes pkg-config, through which SwiftPM would link every program against the library.
//
// The structs keep libxml2's layout whole, as the reader reads structs that libxml2 built.
#ifndef STATECRAFT_CLIBXML2_H
#define STATECRAFT_CLIBXML2_H

#pragma clang assume_nonnull begin

typedef unsigned char xmlChar;

/// libxml2's streaming reader (xmlreader.h), opaque.
typedef struct _xmlTextReader *xmlTextReaderPtr;

struct _xmlDoc;
struct _xmlNode;

/// A namespace (tree.h).
typedef struct _xmlNs {
    struct _xmlNs *_Nullable next;
    int type;
    const xmlChar *_Nullable href;
    const xmlChar *_Nullable prefix;
    void *_Nullable _private;
    struct _xmlDoc *_Nullable context;
} xmlNs;

/// An attribute of an element (tree.h): its value is the text of its `children`.
typedef struct _xmlAttr {
    void *_Nullable _private;
    int type;
    const xmlChar *_Nullable name;
    struct _xmlNode *_Nullable children;
    struct _xmlNode *_Nullable last;
    struct _xmlNode *_Nullable parent;
    struct _xmlAttr *_Nullable next;
    struct _xmlAttr *_Nullable prev;
    struct _xmlDoc *_Nullable doc;
    xmlNs *_Nullable ns;
    int atype;
    void *_Nullable psvi;
} xmlAttr;
typedef xmlAttr *xmlAttrPtr;

/// A node of the document (tree.h).
typedef struct _xmlNode {
    void *_Nullable _private;
    int type;
    const xmlChar *_Nullable name;
    struct _xmlNode *_Nullable children;
    struct _xmlNode *_Nullable last;
    struct _xmlNode *_Nullable parent;
    struct _xmlNode *_Nullable next;
    struct _xmlNode *_Nullable prev;
    struct _xmlDoc *_Nullable doc;
    xmlNs *_Nullable ns;
    xmlChar *_Nullable content;
    xmlAttr *_Nullable properties;
    xmlNs *_Nullable nsDef;
    void *_Nullable psvi;
    unsigned short line;
    unsigned short extra;
} xmlNode;
typedef xmlNode *xmlNodePtr;

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

/// What libxml2 calls with each error (xmlerror.h).
typedef void (*xmlStructuredErrorFunc)(void *_Nullable userData, xmlError *_Nullable error);

/// What the reader stands on (xmlreader.h).
typedef enum {
    XML_READER_TYPE_NONE = 0,
    XML_READER_TYPE_ELEMENT = 1,
    XML_READER_TYPE_ATTRIBUTE = 2,
    XML_READER_TYPE_TEXT = 3,
    XML_READER_TYPE_CDATA = 4,
    XML_READER_TYPE_ENTITY_REFERENCE = 5,
    XML_READER_TYPE_ENTITY = 6,
    XML_READER_TYPE_PROCESSING_INSTRUCTION = 7,
    XML_READER_TYPE_COMMENT = 8,
    XML_READER_TYPE_DOCUMENT = 9,
    XML_READER_TYPE_DOCUMENT_TYPE = 10,
    XML_READER_TYPE_DOCUMENT_FRAGMENT = 11,
    XML_READER_TYPE_NOTATION = 12,
    XML_READER_TYPE_WHITESPACE = 13,
    XML_READER_TYPE_SIGNIFICANT_WHITESPACE = 14,
    XML_READER_TYPE_END_ELEMENT = 15,
    XML_READER_TYPE_END_ENTITY = 16,
    XML_READER_TYPE_XML_DECLARATION = 17
} xmlReaderTypes;

/// The parser options the reader sets (parser.h).
typedef enum {
    XML_PARSE_NONET = 1 << 11,
    XML_PARSE_NOCDATA = 1 << 14,
    XML_PARSE_BIG_LINES = 1 << 22
} xmlParserOption;

#pragma clang assume_nonnull end

#endif
