// The system's libxml2 (Debian: libxml2-dev; its headers are under /usr/include/libxml2, found
// through pkg-config's libxml-2.0). A local header is required: a system-library module map
// cannot name the library's headers directly.
//
// Debian's libxml2 is built with ICU, and its encoding header then includes the system's ICU
// headers, whose types clash with the copy of ICU that Foundation carries (`UErrorCode` has
// different definitions in two modules) in any file that imports both. The reader needs none
// of libxml2's ICU converters, so the module is read as if libxml2 had no ICU: only the layout
// of `xmlCharEncodingHandler`, which Statecraft never touches, depends on it.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
