// The system's libedit (Debian: libedit2; its header from libedit-dev), for `smrun repl`'s line
// editing and history. libedit is not linked: smrun loads it with dlopen when the REPL starts
// at a terminal (LibEdit.swift), so that every other run never maps it, nor the tinfo, bsd and
// md libraries it brings. <histedit.h> gives the types and each function's type; smrun calls
// libedit's functions through the addresses it found, with the functions here. el_set, el_get
// and history take variable arguments, which Swift cannot call: each use smrun makes has a
// fixed-argument function here.
#ifndef SMRUN_CLIBEDIT_H
#define SMRUN_CLIBEDIT_H

#include <histedit.h>
#include <stdio.h>

typedef char *(*smrun_prompt_function)(EditLine *);
typedef unsigned char (*smrun_editor_function)(EditLine *, int);

/// The addresses of libedit's functions that smrun calls, by their names, as dlsym found them.
typedef struct {
    void *el_init;
    void *el_end;
    void *el_gets;
    void *el_line;
    void *el_insertstr;
    void *el_source;
    void *el_set;
    void *el_get;
    void *history_init;
    void *history_end;
    void *history;
} smrun_libedit;

#define SMRUN_LIBEDIT_CALL(lib, name) ((__typeof__(&name))(lib).name)

// MARK: - Line editing

static inline EditLine *smrun_el_init(smrun_libedit lib, const char *program, FILE *input, FILE *output, FILE *errors) {
    return SMRUN_LIBEDIT_CALL(lib, el_init)(program, input, output, errors);
}

static inline void smrun_el_end(smrun_libedit lib, EditLine *el) { SMRUN_LIBEDIT_CALL(lib, el_end)(el); }

static inline const char *smrun_el_gets(smrun_libedit lib, EditLine *el, int *count) {
    return SMRUN_LIBEDIT_CALL(lib, el_gets)(el, count);
}

static inline const LineInfo *smrun_el_line(smrun_libedit lib, EditLine *el) { return SMRUN_LIBEDIT_CALL(lib, el_line)(el); }

static inline int smrun_el_insertstr(smrun_libedit lib, EditLine *el, const char *text) {
    return SMRUN_LIBEDIT_CALL(lib, el_insertstr)(el, text);
}

// Reads `~/.editrc` (or `$EDITRC`), for vi keys and other bindings.
static inline void smrun_el_source_user_settings(smrun_libedit lib, EditLine *el) { SMRUN_LIBEDIT_CALL(lib, el_source)(el, NULL); }

static inline void smrun_el_set_client_data(smrun_libedit lib, EditLine *el, void *data) {
    SMRUN_LIBEDIT_CALL(lib, el_set)(el, EL_CLIENTDATA, data);
}

static inline void *smrun_el_client_data(smrun_libedit lib, EditLine *el) {
    void *data = NULL;
    SMRUN_LIBEDIT_CALL(lib, el_get)(el, EL_CLIENTDATA, &data);
    return data;
}

// The prompt, with the characters between two `ignore` characters (colour escapes) not counted
// as printed.
static inline void smrun_el_set_prompt(smrun_libedit lib, EditLine *el, smrun_prompt_function prompt, char ignore) {
    SMRUN_LIBEDIT_CALL(lib, el_set)(el, EL_PROMPT_ESC, prompt, ignore);
}

static inline void smrun_el_set_editor(smrun_libedit lib, EditLine *el, const char *mode) {
    SMRUN_LIBEDIT_CALL(lib, el_set)(el, EL_EDITOR, mode);
}

static inline void smrun_el_set_history(smrun_libedit lib, EditLine *el, History *list) {
    SMRUN_LIBEDIT_CALL(lib, el_set)(el, EL_HIST, SMRUN_LIBEDIT_CALL(lib, history), list);
}

static inline void smrun_el_set_getc(smrun_libedit lib, EditLine *el, el_rfunc_t getc) {
    SMRUN_LIBEDIT_CALL(lib, el_set)(el, EL_GETCFN, getc);
}

// Adds `function` under `name` and binds `key` (e.g. "^I") to it.
static inline void smrun_el_bind_function(
    smrun_libedit lib, EditLine *el, const char *name, const char *help, smrun_editor_function function, const char *key) {
    SMRUN_LIBEDIT_CALL(lib, el_set)(el, EL_ADDFN, name, help, function);
    SMRUN_LIBEDIT_CALL(lib, el_set)(el, EL_BIND, key, name, NULL);
}

// Puts the terminal back in editing mode and redraws the line: after the process was stopped
// and continued, the shell had the terminal in its own mode. (Cooked first: libedit skips raw
// mode when it believes it is in it already, and reads the cooked settings anew from there.)
static inline void smrun_el_reset_terminal(smrun_libedit lib, EditLine *el) {
    SMRUN_LIBEDIT_CALL(lib, el_set)(el, EL_PREP_TERM, 0);
    SMRUN_LIBEDIT_CALL(lib, el_set)(el, EL_PREP_TERM, 1);
    SMRUN_LIBEDIT_CALL(lib, el_set)(el, EL_REFRESH);
}

// MARK: - History

// A history of at most `size` lines, a line equal to the one before it not added; NULL when
// libedit cannot make one.
static inline History *smrun_history_open(smrun_libedit lib, int size) {
    History *list = SMRUN_LIBEDIT_CALL(lib, history_init)();
    HistEvent event;
    if (list) {
        SMRUN_LIBEDIT_CALL(lib, history)(list, &event, H_SETSIZE, size);
        SMRUN_LIBEDIT_CALL(lib, history)(list, &event, H_SETUNIQUE, 1);
    }
    return list;
}

static inline void smrun_history_close(smrun_libedit lib, History *list) { SMRUN_LIBEDIT_CALL(lib, history_end)(list); }

static inline int smrun_history_enter(smrun_libedit lib, History *list, const char *line) {
    HistEvent event;
    return SMRUN_LIBEDIT_CALL(lib, history)(list, &event, H_ENTER, line);
}

static inline int smrun_history_load(smrun_libedit lib, History *list, const char *path) {
    HistEvent event;
    return SMRUN_LIBEDIT_CALL(lib, history)(list, &event, H_LOAD, path);
}

static inline int smrun_history_save(smrun_libedit lib, History *list, const char *path) {
    HistEvent event;
    return SMRUN_LIBEDIT_CALL(lib, history)(list, &event, H_SAVE, path);
}

#endif
