# AudioSession for Linux. `make demo` replays the examples; `make test` runs every test;
# `make install` (PREFIX, DESTDIR) installs sessionctl and `make uninstall` removes it.
# All three install the Debian packages they need first (scripts/install-deps.sh).

SWIFT ?= swift
SESSIONCTL = .build/debug/sessionctl
EXAMPLES = $(sort $(wildcard examples/*.yaml))

.PHONY: all deps build release manual demo test check-layers check-docs bench bench-quick golden timeline lint clean \
  fuzz sanitize soak \
  install install-files uninstall deb

## Where `make install` puts things (the GNU conventions): PREFIX, default /usr/local, staged
## under DESTDIR for packaging. The binary finds its policies at ../share/audiosession/policies
## from its own folder, so bin/ and share/ stay siblings under PREFIX (docs/install.md).
PREFIX ?= /usr/local
DESTDIR ?=
## systemd searches PREFIX/lib/systemd/user for /usr and /usr/local, but for a per-user install
## (PREFIX=~/.local) only ~/.local/share/systemd/user: set this to that.
SYSTEMD_USER_UNIT_DIR ?= $(PREFIX)/lib/systemd/user
## What install-files installs: make install sets them to the release build's.
SESSIONCTL_BINARY ?= .build/release/sessionctl
## The daemon program, with the backends, which `sessionctl daemon` runs; installed beside
## sessionctl (docs/modules.md "What sessionctl links").
AUDIOSESSIOND_BINARY ?= $(dir $(SESSIONCTL_BINARY))audiosessiond
SESSIONCTL_MANUAL ?= $(MANUAL_DIR)/sessionctl.1
AUDIOSESSIOND_MANUAL ?= $(MANUAL_DIR)/audiosessiond.1
## Where `make manual` writes the manual page.
MANUAL_DIR = .build/manual
## The manual's date: the last commit's, so that a rebuild makes the same page.
MANUAL_DATE := $(shell git log -1 --format=%cs 2>/dev/null)

INSTALL_BIN = $(DESTDIR)$(PREFIX)/bin
INSTALL_DATA = $(DESTDIR)$(PREFIX)/share/audiosession
INSTALL_POLICIES = $(INSTALL_DATA)/policies
POLICY_FILES = $(sort $(notdir $(wildcard policies/*)))
INSTALL_UNIT = $(DESTDIR)$(SYSTEMD_USER_UNIT_DIR)/audiosession.service
INSTALL_MANUAL = $(DESTDIR)$(PREFIX)/share/man/man1/sessionctl.1
INSTALL_DAEMON_MANUAL = $(DESTDIR)$(PREFIX)/share/man/man1/audiosessiond.1
INSTALL_BASH = $(DESTDIR)$(PREFIX)/share/bash-completion/completions/sessionctl
INSTALL_ZSH = $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_sessionctl
INSTALL_FISH = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/sessionctl.fish

all: build

## PulseAudio, and PipeWire for the backend's pipewire-pulse tests (docs/pulseaudio.md §2.1).
deps:
	@scripts/install-deps.sh all

build: deps
	$(SWIFT) build

## What `make install` installs: the programs (.build/release/sessionctl and audiosessiond),
## optimised, with the Swift runtime and Foundation linked in statically, which halves a one-shot
## command's start-up time (no dynamic symbol binding against libswiftCore/libFoundation; libpulse
## stays a shared library), and not position-independent (-no-pie: almost no relocations to apply
## at start); and their manual pages (`make manual`).
RELEASE_FLAGS = --static-swift-stdlib -Xlinker -no-pie
## The programs a release build makes: the two installed, the benches (make bench) and the soak.
RELEASE_PROGRAMS = sessionctl audiosessiond engine-bench scenario-bench pulse-bench daemon-bench \
  audiosession-soak
release: deps manual
	@# swift build recompiles nothing when only flags change: start over after other flags.
	@if [ -e .build/release ] && [ "$$(cat .build/release-flags 2>/dev/null)" != "$(RELEASE_FLAGS)" ]; then \
	  echo "Release flags changed: rebuilding the release build from scratch"; \
	  rm -rf "$$(readlink -f .build/release)"; fi
	@# Program by program: a plain build of every target would take the tests' support
	@# targets too, which import Testing, found only when tests are built.
	for program in $(RELEASE_PROGRAMS); do \
	  $(SWIFT) build -c release $(RELEASE_FLAGS) --product $$program || exit 1; done
	@echo "$(RELEASE_FLAGS)" > .build/release-flags
	@echo "Built .build/release/sessionctl, .build/release/audiosessiond and their manual pages; 'make install' installs them" \
	  "with the policies, the systemd user unit and shell completions (PREFIX=$(PREFIX))."

## The manual pages of sessionctl and audiosessiond, written from their help by
## swift-argument-parser's manual generator (the package's own dependency, built as a tool), run
## on the debug builds (the help is the same in every build). Not through its package plugin: that
## one writes a page for every executable that links ArgumentParser and stops at the benchmarks, which
## have no --experimental-dump-help.
manual: deps
	$(SWIFT) build --product sessionctl
	$(SWIFT) build --product audiosessiond
	$(SWIFT) build --product generate-manual
	@mkdir -p $(MANUAL_DIR)
	for program in sessionctl audiosessiond; do \
	  $$($(SWIFT) build --show-bin-path)/generate-manual "$$($(SWIFT) build --show-bin-path)/$$program" \
	    --output-directory $(MANUAL_DIR) $(if $(MANUAL_DATE),--date $(MANUAL_DATE)) || exit 1; \
	done
	@echo "Wrote $(MANUAL_DIR)/sessionctl.1 and audiosessiond.1 (man -l $(MANUAL_DIR)/sessionctl.1)"

## Build for release, then install (docs/install.md). For a system prefix, build as yourself and
## install as root: make release && sudo make install-files.
install: release
	@$(MAKE) --no-print-directory install-files

## Install built files, without building: the programs SESSIONCTL_BINARY and AUDIOSESSIOND_BINARY
## and their manual pages SESSIONCTL_MANUAL and AUDIOSESSIOND_MANUAL (the release build's unless
## given; InstallTests installs the debug build); the completion scripts come from sessionctl.
install-files:
	@test -x "$(SESSIONCTL_BINARY)" || { echo "error: no binary at $(SESSIONCTL_BINARY): run 'make release' first, or 'make install'" >&2; exit 1; }
	@test -x "$(AUDIOSESSIOND_BINARY)" || { echo "error: no binary at $(AUDIOSESSIOND_BINARY): run 'make release' first, or 'make install'" >&2; exit 1; }
	@test -f "$(SESSIONCTL_MANUAL)" || { echo "error: no manual page at $(SESSIONCTL_MANUAL): run 'make release' first, or 'make install'" >&2; exit 1; }
	@test -f "$(AUDIOSESSIOND_MANUAL)" || { echo "error: no manual page at $(AUDIOSESSIOND_MANUAL): run 'make release' first, or 'make install'" >&2; exit 1; }
	install -d "$(INSTALL_BIN)" "$(INSTALL_POLICIES)"
	install -m 755 "$(SESSIONCTL_BINARY)" "$(INSTALL_BIN)/sessionctl"
	install -m 755 "$(AUDIOSESSIOND_BINARY)" "$(INSTALL_BIN)/audiosessiond"
	install -m 644 $(addprefix policies/,$(POLICY_FILES)) "$(INSTALL_POLICIES)"
	install -D -m 644 "$(SESSIONCTL_MANUAL)" "$(INSTALL_MANUAL)"
	install -D -m 644 "$(AUDIOSESSIOND_MANUAL)" "$(INSTALL_DAEMON_MANUAL)"
	install -d "$(dir $(INSTALL_UNIT))"
	sed 's|^ExecStart=[^ ]*/audiosessiond |ExecStart=$(PREFIX)/bin/audiosessiond |' contrib/audiosession.service > "$(INSTALL_UNIT)"
	chmod 644 "$(INSTALL_UNIT)"
	install -d "$(dir $(INSTALL_BASH))" "$(dir $(INSTALL_ZSH))" "$(dir $(INSTALL_FISH))"
	"$(SESSIONCTL_BINARY)" --generate-completion-script bash > "$(INSTALL_BASH)"
	"$(SESSIONCTL_BINARY)" --generate-completion-script zsh > "$(INSTALL_ZSH)"
	"$(SESSIONCTL_BINARY)" --generate-completion-script fish > "$(INSTALL_FISH)"
	chmod 644 "$(INSTALL_BASH)" "$(INSTALL_ZSH)" "$(INSTALL_FISH)"
	@echo "Installed sessionctl and audiosessiond in $(DESTDIR)$(PREFIX) (policies: $(INSTALL_POLICIES))."

## Remove exactly what install-files placed (same PREFIX and DESTDIR); the folders it shares with
## other programs stay, audiosession's own data folder goes once empty.
uninstall:
	rm -f "$(INSTALL_BIN)/sessionctl" "$(INSTALL_BIN)/audiosessiond" "$(INSTALL_MANUAL)" "$(INSTALL_DAEMON_MANUAL)" "$(INSTALL_UNIT)" \
	  "$(INSTALL_BASH)" "$(INSTALL_ZSH)" "$(INSTALL_FISH)"
	rm -f $(addprefix "$(INSTALL_POLICIES)"/,$(POLICY_FILES))
	@for d in "$(INSTALL_POLICIES)" "$(INSTALL_DATA)"; do \
	  if [ -d "$$d" ]; then rmdir "$$d" 2>/dev/null || echo "kept $$d: it holds files sessionctl did not install" >&2; fi; \
	done

## A Debian package of the release build, .build/audiosession_VERSION_ARCH.deb: what install-files
## installs with PREFIX=/usr, its dependencies from the libraries the programs link
## (scripts/make-deb.sh; docs/install.md "A Debian package"). Install it with
## `sudo apt install ./.build/audiosession_*.deb`.
deb: release
	scripts/make-deb.sh

## Replay every example scenario on the simulated backend, as a person reads it.
demo: build
	@for f in $(EXAMPLES); do \
	  echo; echo "=== $$f"; \
	  $(SESSIONCTL) scenario run "$$f" || exit 1; \
	done

## Every test: layer guard, the Swift Testing suite, then the README's and docs' command blocks.
test: deps check-layers
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	$(SWIFT) test --skip-build
	@$(MAKE) --no-print-directory check-docs

## Runs the command blocks of README.md, docs/, examples/ and policies/ as written, each in a
## private sandbox, with the debug binaries already built (scripts/check-docs.sh says how blocks
## are marked). It never builds.
check-docs:
	scripts/check-docs.sh

## Only the libpulse layer, Sources/AudioSessionPulse/LibPulse, may import the C module
## (docs/style.md §3.4).
## The C folder's second module, the Swift runtime's executor hooks, is the daemon's alone.
## Every import of one of the package's own modules names a declared dependency (a debug build
## would find an undeclared one in .build; a release build fails): scripts/check-imports.py.
check-layers:
	@if grep -rlE '^\s*(public |internal |@_implementationOnly )?import CPulse' Sources | grep -v '^Sources/AudioSessionPulse/LibPulse/'; then \
	  echo "error: only Sources/AudioSessionPulse/LibPulse (the libpulse layer) may import CPulse" >&2; exit 1; fi
	@if grep -rlE '^\s*(public |internal |@_implementationOnly )?import CSwiftRuntimeHooks' Sources Tests Benchmarks examples | grep -vx 'Sources/AudioSessionDaemon/GlobalExecutor.swift'; then \
	  echo "error: only Sources/AudioSessionDaemon/GlobalExecutor.swift may import CSwiftRuntimeHooks" >&2; exit 1; fi
	@if grep -rlE '^\s*(public |internal |@_implementationOnly )?import CSDBus' Sources Tests Benchmarks examples | grep -v '^Sources/AudioSessionMPRIS/'; then \
	  echo "error: only Sources/AudioSessionMPRIS (the MPRIS code) may import CSDBus" >&2; exit 1; fi
	@if grep -rlE '^\s*(public |internal |@_implementationOnly )?import CSDNotify' Sources Tests Benchmarks examples | grep -vx 'Sources/AudioSessionDaemon/ServiceNotification.swift'; then \
	  echo "error: only Sources/AudioSessionDaemon/ServiceNotification.swift may import CSDNotify" >&2; exit 1; fi
	@scripts/check-imports.py

## Benchmarks (release build); figures are ratios and percentiles from one run. pulse-bench
## starts private PulseAudio and PipeWire servers and measures the backend against a raw
## libpulse client, module-role-cork and WirePlumber. Each bench ends with its table of goals
## and stops itself past its time limit; scripts/bench.sh prints the summary of all of them and
## fails when a goal is not met (docs/style.md §3.10).
bench: release
	scripts/bench.sh

## The engine, scenario and daemon benches with fewer rounds (a few minutes), for use before
## every change that touches a hot path.
bench-quick: release
	scripts/bench.sh --quick

## The simulation checked against the real desktop, by ear (docs/soak.md; not part of make test):
## seeded random histories of what real programs do, each predicted by `sessionctl scenario run`
## and acted out by mpv, pacat, headless Chromium and espeak-ng on a private server with the
## daemon, the speaker's monitor recorded. SOAK_SERVER: pulse, pipewire, pipewire-roles or all;
## at most SOAK_HISTORIES histories of SOAK_STEPS acts on each, for at most SOAK_SECONDS each,
## SOAK_JOBS at once; the same SOAK_SEED gives the same histories. Prints the agreement per
## server and saves each disagreement as a scenario under .build/soak/<server>/.
SOAK_SERVER ?= all
SOAK_HISTORIES ?= 200
SOAK_STEPS ?= 10
SOAK_SECONDS ?= 3600
SOAK_SEED ?= 1
SOAK_JOBS ?= 2
soak: deps
	$(SWIFT) build
	.build/debug/audiosession-soak --server $(SOAK_SERVER) --histories $(SOAK_HISTORIES) \
	  --steps $(SOAK_STEPS) --seconds $(SOAK_SECONDS) --seed $(SOAK_SEED) --jobs $(SOAK_JOBS) \
	  --policies policies --output .build/soak

## Coverage-guided fuzzing with libFuzzer (docs/fuzzing.md): every target (FUZZ_TARGETS, default
## all) for FUZZ_SECONDS seconds each (default 600), FUZZ_JOBS of them at once (default 1),
## built with -sanitize=fuzzer,address in .build/fuzz; a crash is kept in Fuzz/regressions/<target>/, which make test replays.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?=
FUZZ_JOBS ?= 1
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) scripts/fuzz.sh $(FUZZ_TARGETS)

## The whole suite under ThreadSanitizer, then AddressSanitizer, each in a build folder of its
## own (.build/tsan, .build/asan), so that the ordinary build is left as it is (docs/fuzzing.md
## "Sanitizers" says what each run leaves out, and why). The AddressSanitizer half runs even
## when the ThreadSanitizer half fails; the target fails if either did.
SANITIZE_THREAD_SKIP ?=
SANITIZE_ADDRESS_SKIP ?=
TSAN_SUPPRESSIONS = $(CURDIR)/Tests/Sanitizers/tsan-suppressions.txt
LSAN_SUPPRESSIONS = $(CURDIR)/Tests/Sanitizers/lsan-suppressions.txt
sanitize: deps
	@status=0; \
	{ $(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan && \
	  AUDIOSESSION_TEST_WAIT_SCALE=4 TSAN_OPTIONS="suppressions=$(TSAN_SUPPRESSIONS) $$TSAN_OPTIONS" \
	    $(SWIFT) test --skip-build \
	    --sanitize=thread --scratch-path .build/tsan $(SANITIZE_THREAD_SKIP); } || \
	  { status=1; echo "make sanitize: the ThreadSanitizer run failed (above)" >&2; }; \
	{ $(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan && \
	  AUDIOSESSION_TEST_WAIT_SCALE=4 LSAN_OPTIONS="suppressions=$(LSAN_SUPPRESSIONS) $$LSAN_OPTIONS" \
	    $(SWIFT) test --skip-build --sanitize=address \
	    --scratch-path .build/asan \
	    $(SANITIZE_ADDRESS_SKIP); } || \
	  { status=1; echo "make sanitize: the AddressSanitizer run failed (above)" >&2; }; \
	exit $$status

## Rewrite the examples' golden transcripts after an intended behaviour change.
golden: build
	UPDATE_GOLDEN=1 $(SWIFT) test --filter Examples

## Redraw the README's timeline picture (docs/timeline.svg) from examples/commute.yaml;
## TimelineSVGTests fails when the committed picture is not what this draws.
timeline: build
	$(SESSIONCTL) scenario run examples/commute.yaml --timeline docs/timeline.svg > /dev/null

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Fuzz Soak Package.swift

clean:
	rm -rf .build
