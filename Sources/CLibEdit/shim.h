// The system's libedit (Debian: libedit-dev), for `smrun repl`'s line editing and history.
// el_set, el_get and history take variable arguments, which Swift cannot call: each use
// smrun makes has a fixed-argument wrapper here.
#include <histedit.h>
#include <stdio.h>

typedef char *(*smrun_prompt_function)(EditLine *);
typedef unsigned char (*smrun_editor_function)(EditLine *, int);

static inline void smrun_el_set_client_data(EditLine *el, void *data) { el_set(el, EL_CLIENTDATA, data); }

static inline void *smrun_el_client_data(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}

// The prompt, with the characters between two `ignore` characters (colour escapes) not counted
// as printed.
static inline void smrun_el_set_prompt(EditLine *el, smrun_prompt_function prompt, char ignore) {
    el_set(el, EL_PROMPT_ESC, prompt, ignore);
}

static inline void smrun_el_set_editor(EditLine *el, const char *mode) { el_set(el, EL_EDITOR, mode); }

static inline void smrun_el_set_history(EditLine *el, History *list) { el_set(el, EL_HIST, history, list); }

static inline void smrun_el_set_getc(EditLine *el, el_rfunc_t getc) { el_set(el, EL_GETCFN, getc); }

// Adds `function` under `name` and binds `key` (e.g. "^I") to it.
static inline void smrun_el_bind_function(
    EditLine *el, const char *name, const char *help, smrun_editor_function function, const char *key) {
    el_set(el, EL_ADDFN, name, help, function);
    el_set(el, EL_BIND, key, name, NULL);
}

// Puts the terminal back in editing mode and redraws the line: after the process was stopped
// and continued, the shell had the terminal in its own mode. (Cooked first: libedit skips raw
// mode when it believes it is in it already, and reads the cooked settings anew from there.)
static inline void smrun_el_reset_terminal(EditLine *el) {
    el_set(el, EL_PREP_TERM, 0);
    el_set(el, EL_PREP_TERM, 1);
    el_set(el, EL_REFRESH);
}

static inline History *smrun_history_open(int size) {
    History *list = history_init();
    HistEvent event;
    if (list) {
        history(list, &event, H_SETSIZE, size);
        history(list, &event, H_SETUNIQUE, 1);
    }
    return list;
}

static inline int smrun_history_enter(History *list, const char *line) {
    HistEvent event;
    return history(list, &event, H_ENTER, line);
}

static inline int smrun_history_load(History *list, const char *path) {
    HistEvent event;
    return history(list, &event, H_LOAD, path);
}

static inline int smrun_history_save(History *list, const char *path) {
    HistEvent event;
    return history(list, &event, H_SAVE, path);
}
