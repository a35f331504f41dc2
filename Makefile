# Statecraft: build, test, run, bench, fuzz. `make test` installs what it needs on a fresh machine.
SWIFT ?= swift
PREFIX ?= /usr/local
# smrun's release build links the Swift runtime statically and libyaml dynamically; libxml2
# (for SCXML) and libedit (for `smrun repl`) are loaded with dlopen when first needed, as
# Debian's ICU, lzma and zlib, which libxml2 needs, cannot be linked into a static executable.
# docs/development.md says what the binary needs at run time. It has a scratch path of its own, as its
# flags differ from the other builds'.
RELEASE_SCRATCH = .build/static
SMRUN = $(RELEASE_SCRATCH)/release/smrun

.PHONY: all build release deps test-deps run test test-tsan install man schema bench fuzz clean

all: build

APT_INSTALL = apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq

# libyaml's, libedit's and SQLite's headers (Debian: libyaml-dev, libedit-dev, libsqlite3-dev;
# GRDB, behind `smrun serve`'s store, builds on the system's SQLite) are needed to build;
# libxml2 is declared by Statecraft itself (Sources/CLibXML2), and needed only at run time.
deps:
	@missing=""; \
	pkg-config --exists yaml-0.1 2>/dev/null || missing="libyaml-dev pkg-config"; \
	pkg-config --exists libedit 2>/dev/null || missing="$$missing libedit-dev pkg-config"; \
	pkg-config --exists sqlite3 2>/dev/null || missing="$$missing libsqlite3-dev pkg-config"; \
	[ -z "$$missing" ] || { $(APT_INSTALL) $$missing; }

# The tests also need libxml2 and its headers (Debian: libxml2-dev; SCXML documents, and a test
# that checks Statecraft's own declarations of libxml2 against them), Graphviz's dot (every
# diagram renders), tmux (smrun repl at a terminal), sqlite3 (the store's tests write a file as
# a newer smrun would), faketime (a server whose clock runs behind its database's), bash, zsh
# and fish (completion scripts),
# Python's jsonschema and PyYAML from PyPI (the machine-file schema), through pip, or Debian's
# packages of them where pip may not install, junitparser (to read `smrun test --format
# junit` as a CI system does), schemathesis (which tests `smrun serve` against its OpenAPI
# document, Sources/StatecraftServer/openapi.json), and PostgreSQL's server programs (Debian:
# postgresql; the tests start throwaway clusters of their own with its initdb and pg_ctl),
# and for the inspector's browser tests Debian's chromium and chromium-driver and Selenium
# (PyPI).
test-deps: deps
	@missing=""; \
	pkg-config --exists libxml-2.0 2>/dev/null || missing="$$missing libxml2-dev"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v dot >/dev/null || missing="$$missing graphviz"; \
	command -v tmux >/dev/null || missing="$$missing tmux"; \
	command -v sqlite3 >/dev/null || missing="$$missing sqlite3"; \
	command -v faketime >/dev/null || missing="$$missing faketime"; \
	command -v zsh >/dev/null || missing="$$missing zsh"; \
	command -v fish >/dev/null || missing="$$missing fish"; \
	command -v python3 >/dev/null || missing="$$missing python3"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v chromedriver >/dev/null || missing="$$missing chromium-driver"; \
	[ -z "$$missing" ] || { $(APT_INSTALL) $$missing; }
	@python3 -c 'import jsonschema, yaml' 2>/dev/null || python3 -m pip install --quiet jsonschema pyyaml \
	  || { $(APT_INSTALL) python3-jsonschema python3-yaml; }
	@python3 -c 'import junitparser' 2>/dev/null || python3 -m pip install --quiet junitparser \
	  || python3 -m pip install --quiet --break-system-packages junitparser
	@python3 -c 'import schemathesis' 2>/dev/null || python3 -m pip install --quiet schemathesis \
	  || python3 -m pip install --quiet --break-system-packages schemathesis
	@python3 -c 'import selenium' 2>/dev/null || python3 -m pip install --quiet selenium \
	  || python3 -m pip install --quiet --break-system-packages selenium

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(RELEASE_SCRATCH) --product smrun

# Runs the self-driving car of Jester's README through its journey.
run: release
	$(SMRUN) machines/self-driving-car.yaml < machines/self-driving-car.script; status=$$?; \
	  echo "(exit status $$status: 1 means some input was rejected, as noMapInput is here)"

# The example machines' scenario files are run as a step of their own, as a user's CI would;
# so are the inspector's browser tests (Chromium, driven by Selenium from Python, against the
# smrun just built), after the Swift tests, so that the browser does not compete with them.
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$$($(SWIFT) build --show-bin-path)/smrun test machines/
	SMRUN=$$($(SWIFT) build --show-bin-path)/smrun python3 Tests/Inspector/test_inspector.py

# The whole suite under ThreadSanitizer (the test runner and the smrun it runs end to end are
# both built with it), in a scratch path of its own so that it does not rebuild `make test`'s.
# Tests that assert a wall-clock bound (hostile files "refused in under a second") carry the
# `.timeBound` trait (Tests/TestSupport/TimeBound.swift), which skips them when
# STATECRAFT_SKIP_TIME_BOUNDS is set: a sanitized build is several times slower, and `make
# test` checks those bounds. (An environment variable, as `swift test --skip tag:...` does not
# filter by tag in Swift 6.3: it is taken as a regular expression on test names.) The `smrun
# serve` end-to-end suites (Tests/SmrunTests/Serve*.swift) run in `make test` only:
# STATECRAFT_SKIP_SERVE_TESTS skips them here. A race report
# in the runner or in smrun makes that process exit with status 66, so the run fails.
TSAN_SCRATCH = .build-tsan
test-tsan: test-deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path $(TSAN_SCRATCH)
	STATECRAFT_SKIP_TIME_BOUNDS=1 STATECRAFT_SKIP_SERVE_TESTS=1 $(SWIFT) test --skip-build --sanitize=thread --scratch-path $(TSAN_SCRATCH)

# smrun against a C table, awk, Python and pytransitions on 1M inputs; the engine in-process
# (ns and allocations per transition); loading a 100,000-transition machine against libyaml's
# bare parse; validate and start-up on a small machine. See benchmarks/bench.sh. Then the server
# (benchmarks/serve_bench.sh) and the inspector page in Chromium (benchmarks/inspector_bench.py).
bench: deps
	@pkg-config --exists libxml-2.0 2>/dev/null || { $(APT_INSTALL) libxml2-dev; }
	benchmarks/bench.sh
	$(MAKE) release
	SMRUN=$(SMRUN) benchmarks/serve_bench.sh
	SMRUN=$(SMRUN) python3 benchmarks/inspector_bench.py

# libFuzzer + AddressSanitizer on the machine-file loader, script lines, expressions and the SCXML reader, each for
# FUZZ_SECONDS; fails on any crash, sanitizer report or timeout. See Fuzz/run.sh.
FUZZ_SECONDS ?= 60
fuzz: deps
	SWIFT="$(SWIFT)" FUZZ_SECONDS=$(FUZZ_SECONDS) Fuzz/run.sh

# smrun, its man page, its completion scripts for bash, zsh and fish, and the JSON Schema of
# machine files (for editors), under PREFIX.
install: release man
	install -d $(PREFIX)/bin $(PREFIX)/share/man/man1 $(PREFIX)/share/bash-completion/completions \
	  $(PREFIX)/share/zsh/site-functions $(PREFIX)/share/fish/vendor_completions.d $(PREFIX)/share/statecraft
	install $(SMRUN) $(PREFIX)/bin/smrun
	install -m 644 $(MANPAGE) $(PREFIX)/share/man/man1/smrun.1
	install -m 644 schema/machine.schema.json $(PREFIX)/share/statecraft/machine.schema.json
	$(SMRUN) --generate-completion-script bash > $(PREFIX)/share/bash-completion/completions/smrun
	$(SMRUN) --generate-completion-script zsh > $(PREFIX)/share/zsh/site-functions/_smrun
	$(SMRUN) --generate-completion-script fish > $(PREFIX)/share/fish/vendor_completions.d/smrun.fish

# The man page, from smrun's help texts by swift-argument-parser's generate-manual plugin.
MANPAGE = .build/plugins/GenerateManual/outputs/smrun/smrun.1
man: deps
	$(SWIFT) package plugin generate-manual --configuration debug --authors "The Statecraft authors"

# Rewrites the committed JSON Schema of machine files from smrun's (a test checks they agree).
schema: deps
	$(SWIFT) build --product smrun
	$$($(SWIFT) build --show-bin-path)/smrun schema > schema/machine.schema.json

clean:
	rm -rf .build $(TSAN_SCRATCH) .build-fuzz Fuzz/.work
