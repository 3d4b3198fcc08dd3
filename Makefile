# yume-cli: `make test` is what CI runs; `make demo` shows the whole loop.
GO        ?= go
BIN       := bin
FUZZTIME  ?= 30000x
BENCHTIME ?= 1s
PKGS      := ./...

.PHONY: all build test race bench fuzz demo lint e2e e2e-deps compare clean

all: lint test

build:
	$(GO) build -o $(BIN)/yume-cli ./cmd/yume-cli
	$(GO) build -o $(BIN)/yume-demo ./cmd/yume-demo

test:
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 -timeout 20m $(PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)

# Each fuzz target runs for FUZZTIME (go test allows one -fuzz target per run).
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$f"; \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

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

# The real provider CLIs, installed from npm into .e2e/npm (git-ignored).
# Pinned to the versions the live tests were written against; override to
# try others, e.g. make e2e E2E_CLIS='@google/gemini-cli@latest'.
E2E_NPM  := .e2e/npm
E2E_CLIS ?= @github/copilot@1.0.102 @anthropic-ai/claude-code@2.1.197 @google/gemini-cli@0.61.0 @openai/codex@0.169.0
e2e-deps:
	npm install --prefix $(E2E_NPM) --no-audit --no-fund --loglevel=error $(E2E_CLIS)

# Live runs against the real CLIs, offline, against a fake model server on 127.0.0.1.
# The CLIs are third-party programs timed by a loaded machine: a failed
# run is retried once, loudly; a second failure fails.
E2E_TEST = PATH="$(CURDIR)/$(E2E_NPM)/node_modules/.bin:$$PATH" YUME_E2E=1 \
	  $(GO) test -count=1 -timeout 40m -run 'E2E|Live' $(PKGS)
e2e: e2e-deps
	$(E2E_TEST) || { echo "e2e: live run failed; retrying once" >&2; $(E2E_TEST); }

clean:
	rm -rf $(BIN)
