// Loads the system's libxml2 on first use (CLibXML2.h says why it is not linked).
#include "CLibXML2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libxml2's names: libxml2.so.2 until libxml2 2.13, libxml2.so.16 from 2.14, whose reader keeps
// the functions and structs declared in CLibXML2.h as they were.
static const char *const libraryNames[] = {"libxml2.so.2", "libxml2.so.16"};

static StatecraftLibXML2 functions;
static const StatecraftLibXML2 *loadedFunctions;
static char failure[512];
static pthread_once_t loading = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = NULL;
    for (size_t index = 0; index < sizeof libraryNames / sizeof *libraryNames && library == NULL; index++) {
        library = dlopen(libraryNames[index], RTLD_NOW | RTLD_LOCAL);
        // The first name's message is the one reported: it names the library a Debian system has.
        if (library == NULL && index == 0) {
            const char *reason = dlerror();
            // dlerror names the library; a failure it did not see is named here.
            if (reason != NULL) {
                snprintf(failure, sizeof failure, "%s", reason);
            } else {
                snprintf(failure, sizeof failure, "%s: cannot be loaded", libraryNames[0]);
            }
        }
    }
    if (library == NULL) return;
    failure[0] = 0;
#define RESOLVE(name)                                                                       \
    if ((functions.name = (__typeof__(functions.name))dlsym(library, #name)) == NULL) {     \
        snprintf(failure, sizeof failure, "%s has no function %s", libraryNames[0], #name); \
        return;                                                                             \
    }
    RESOLVE(xmlReaderForMemory)
    RESOLVE(xmlFreeTextReader)
    RESOLVE(xmlTextReaderSetStructuredErrorHandler)
    RESOLVE(xmlTextReaderRead)
    RESOLVE(xmlTextReaderNodeType)
    RESOLVE(xmlTextReaderGetParserLineNumber)
    RESOLVE(xmlTextReaderIsEmptyElement)
    RESOLVE(xmlTextReaderConstValue)
    RESOLVE(xmlTextReaderCurrentNode)
    RESOLVE(xmlGetLineNo)
#undef RESOLVE
    // libxml2 2.9's initialisation is not safe to run from two threads at once: it runs here,
    // once, before any reader is made.
    void (*initParser)(void) = (void (*)(void))dlsym(library, "xmlInitParser");
    if (initParser == NULL) {
        snprintf(failure, sizeof failure, "%s has no function xmlInitParser", libraryNames[0]);
        return;
    }
    initParser();
    loadedFunctions = &functions;
}

const StatecraftLibXML2 *statecraft_libxml2(void) {
    pthread_once(&loading, load);
    return loadedFunctions;
}

const char *statecraft_libxml2_failure(void) {
    pthread_once(&loading, load);
    return failure;
}
