// The system's libedit (Debian: libedit2; its header from libedit-dev), for `smrun repl`'s line
// editing and history, loaded with dlopen when the REPL starts at a terminal rather than linked:
// every other run of smrun then never maps libedit, nor the tinfo, bsd and md libraries it
// brings. <histedit.h> gives the types; smrun calls libedit only through the functions here.
// el_set, el_get and history take variable arguments, which Swift cannot call: each use smrun
// makes has a fixed-argument function here.
#ifndef SMRUN_CLIBEDIT_H
#define SMRUN_CLIBEDIT_H

#include <histedit.h>
#include <stdio.h>

typedef char *(*smrun_prompt_function)(EditLine *);
typedef unsigned char (*smrun_editor_function)(EditLine *, int);

/// Loads libedit, on the first call: 1 when it is loaded, 0 when it cannot be, with the reason
/// in `smrun_libedit_failure()`. The other functions may be called only once this returned 1.
int smrun_libedit_load(void);

/// Why libedit could not be loaded (the dynamic loader's message), or "" when it was.
const char *smrun_libedit_failure(void);

EditLine *smrun_el_init(const char *program, FILE *input, FILE *output, FILE *errors);
void smrun_el_end(EditLine *el);
const char *smrun_el_gets(EditLine *el, int *count);
const LineInfo *smrun_el_line(EditLine *el);
int smrun_el_insertstr(EditLine *el, const char *text);
/// Reads `~/.editrc` (or `$EDITRC`), for vi keys and other bindings.
void smrun_el_source_user_settings(EditLine *el);

void smrun_el_set_client_data(EditLine *el, void *data);
void *smrun_el_client_data(EditLine *el);
/// The prompt, with the characters between two `ignore` characters (colour escapes) not counted
/// as printed.
void smrun_el_set_prompt(EditLine *el, smrun_prompt_function prompt, char ignore);
void smrun_el_set_editor(EditLine *el, const char *mode);
void smrun_el_set_history(EditLine *el, History *list);
void smrun_el_set_getc(EditLine *el, el_rfunc_t getc);
/// Adds `function` under `name` and binds `key` (e.g. "^I") to it.
void smrun_el_bind_function(EditLine *el, const char *name, const char *help, smrun_editor_function function, const char *key);
/// Puts the terminal back in editing mode and redraws the line: after the process was stopped
/// and continued, the shell had the terminal in its own mode.
void smrun_el_reset_terminal(EditLine *el);

/// A history of at most `size` lines, a line equal to the one before it not added; NULL when
/// libedit cannot make one.
History *smrun_history_open(int size);
void smrun_history_close(History *list);
int smrun_history_enter(History *list, const char *line);
int smrun_history_load(History *list, const char *path);
int smrun_history_save(History *list, const char *path);

#endif
