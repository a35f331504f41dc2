// libedit, loaded on first use (CLibEdit.h says why it is not linked), and the fixed-argument
// forms of its calls that smrun makes.
#include "CLibEdit.h"

#include <dlfcn.h>
#include <pthread.h>

// libedit's names: libedit.so.2 on Debian and Ubuntu, libedit.so.0 on Fedora and Arch.
static const char *const libraryNames[] = {"libedit.so.2", "libedit.so.0"};

static struct {
    __typeof__(&el_init) el_init;
    __typeof__(&el_end) el_end;
    __typeof__(&el_gets) el_gets;
    __typeof__(&el_line) el_line;
    __typeof__(&el_insertstr) el_insertstr;
    __typeof__(&el_source) el_source;
    __typeof__(&el_set) el_set;
    __typeof__(&el_get) el_get;
    __typeof__(&history_init) history_init;
    __typeof__(&history_end) history_end;
    __typeof__(&history) history;
} libedit;
static int loaded;
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
    if ((libedit.name = (__typeof__(libedit.name))dlsym(library, #name)) == NULL) {         \
        snprintf(failure, sizeof failure, "%s has no function %s", libraryNames[0], #name); \
        return;                                                                             \
    }
    RESOLVE(el_init)
    RESOLVE(el_end)
    RESOLVE(el_gets)
    RESOLVE(el_line)
    RESOLVE(el_insertstr)
    RESOLVE(el_source)
    RESOLVE(el_set)
    RESOLVE(el_get)
    RESOLVE(history_init)
    RESOLVE(history_end)
    RESOLVE(history)
#undef RESOLVE
    loaded = 1;
}

int smrun_libedit_load(void) {
    pthread_once(&loading, load);
    return loaded;
}

const char *smrun_libedit_failure(void) {
    pthread_once(&loading, load);
    return failure;
}

// MARK: - Line editing

EditLine *smrun_el_init(const char *program, FILE *input, FILE *output, FILE *errors) {
    return libedit.el_init(program, input, output, errors);
}

void smrun_el_end(EditLine *el) { libedit.el_end(el); }

const char *smrun_el_gets(EditLine *el, int *count) { return libedit.el_gets(el, count); }

const LineInfo *smrun_el_line(EditLine *el) { return libedit.el_line(el); }

int smrun_el_insertstr(EditLine *el, const char *text) { return libedit.el_insertstr(el, text); }

void smrun_el_source_user_settings(EditLine *el) { libedit.el_source(el, NULL); }

void smrun_el_set_client_data(EditLine *el, void *data) { libedit.el_set(el, EL_CLIENTDATA, data); }

void *smrun_el_client_data(EditLine *el) {
    void *data = NULL;
    libedit.el_get(el, EL_CLIENTDATA, &data);
    return data;
}

void smrun_el_set_prompt(EditLine *el, smrun_prompt_function prompt, char ignore) {
    libedit.el_set(el, EL_PROMPT_ESC, prompt, ignore);
}

void smrun_el_set_editor(EditLine *el, const char *mode) { libedit.el_set(el, EL_EDITOR, mode); }

void smrun_el_set_history(EditLine *el, History *list) { libedit.el_set(el, EL_HIST, libedit.history, list); }

void smrun_el_set_getc(EditLine *el, el_rfunc_t getc) { libedit.el_set(el, EL_GETCFN, getc); }

void smrun_el_bind_function(EditLine *el, const char *name, const char *help, smrun_editor_function function, const char *key) {
    libedit.el_set(el, EL_ADDFN, name, help, function);
    libedit.el_set(el, EL_BIND, key, name, NULL);
}

// Cooked first: libedit skips raw mode when it believes it is in it already, and reads the
// cooked settings anew from there.
void smrun_el_reset_terminal(EditLine *el) {
    libedit.el_set(el, EL_PREP_TERM, 0);
    libedit.el_set(el, EL_PREP_TERM, 1);
    libedit.el_set(el, EL_REFRESH);
}

// MARK: - History

History *smrun_history_open(int size) {
    History *list = libedit.history_init();
    HistEvent event;
    if (list) {
        libedit.history(list, &event, H_SETSIZE, size);
        libedit.history(list, &event, H_SETUNIQUE, 1);
    }
    return list;
}

void smrun_history_close(History *list) { libedit.history_end(list); }

int smrun_history_enter(History *list, const char *line) {
    HistEvent event;
    return libedit.history(list, &event, H_ENTER, line);
}

int smrun_history_load(History *list, const char *path) {
    HistEvent event;
    return libedit.history(list, &event, H_LOAD, path);
}

int smrun_history_save(History *list, const char *path) {
    HistEvent event;
    return libedit.history(list, &event, H_SAVE, path);
}
