# AudioSession for Linux. `make demo` replays the examples; `make test` runs every test.
# Both install the Debian packages they need first (scripts/install-deps.sh).

SWIFT ?= swift
SESSIONCTL = .build/debug/sessionctl
EXAMPLES = $(sort $(wildcard examples/*.yaml))

.PHONY: all deps build release demo test check-layers check-docs bench golden lint clean

all: build

## PulseAudio, and PipeWire for the backend's pipewire-pulse tests (issue 3 item 8).
deps:
	@scripts/install-deps.sh all

build: deps
	$(SWIFT) build

## The binaries to install (.build/release/sessionctl): optimised, with the Swift runtime and
## Foundation linked in statically, which halves a one-shot command's start-up time (no
## dynamic symbol binding against libswiftCore/libFoundation); libpulse stays a shared library.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

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

## Only Sources/AudioSession/PulseAudio may import the C module (STYLE §3.4).
## The C folder's second module, the Swift runtime's executor hooks, is the daemon's alone.
check-layers:
	@if grep -rlE '^\s*(public |internal |@_implementationOnly )?import CPulse' Sources | grep -v '^Sources/AudioSession/PulseAudio/'; then \
	  echo "error: only Sources/AudioSession/PulseAudio may import CPulse" >&2; exit 1; fi
	@if grep -rlE '^\s*(public |internal |@_implementationOnly )?import CSwiftRuntimeHooks' Sources Tests Benchmarks examples | grep -vx 'Sources/AudioSessionDaemon/GlobalExecutor.swift'; then \
	  echo "error: only Sources/AudioSessionDaemon/GlobalExecutor.swift may import CSwiftRuntimeHooks" >&2; exit 1; fi

## Benchmarks (release build); figures are ratios and percentiles from one run. pulse-bench
## starts a private PulseAudio server and measures the backend against a raw libpulse client.
bench: release
	.build/release/engine-bench
	.build/release/pulse-bench policies
	.build/release/daemon-bench

## Rewrite the examples' golden transcripts after an intended behaviour change.
golden: build
	UPDATE_GOLDEN=1 $(SWIFT) test --filter Examples

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

clean:
	rm -rf .build
