// The system's libxml2 (Debian: libxml2-dev; its headers are under /usr/include/libxml2, found
// through pkg-config's libxml-2.0). A local header is required: a system-library module map
// cannot name the library's headers directly.
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
