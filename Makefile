# `make test` and `make demo` work on a fresh machine: they build .venv first.
# `make test` also installs Debian's Chromium for the panel's browser tests when
# it is missing and apt can install it (CI runs as root); elsewhere those tests
# report themselves skipped with the reason.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

CHROMIUM := /usr/bin/chromium

.PHONY: test demo bench clean browser clients

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,vectors,panel]'
	touch $(STAMP)

test: $(STAMP) browser clients
	$(BIN)/python -m pytest -q

# The real coding agents the client tests drive (tests/integrations/clients), pinned, from npm into
# .venv/clients. Never fails the build: without npm or the registry those tests say why they skip.
CLIENTS := @anthropic-ai/claude-code@2.1.332 @openai/codex@0.171.0 @google/gemini-cli@0.61.0 opencode-ai@1.18.33
clients: $(STAMP)
	@if ! command -v npm >/dev/null 2>&1; then echo "make: npm missing; the real-client tests will be skipped"; \
	elif [ ! -f $(VENV)/clients/.installed ] || [ "$$(cat $(VENV)/clients/.installed)" != "$(CLIENTS)" ]; then \
		echo "make: installing the coding agents the client tests drive ($(CLIENTS))"; \
		mkdir -p $(VENV)/clients && npm install --prefix $(VENV)/clients --no-audit --no-fund --silent $(CLIENTS) >/dev/null 2>&1 \
			&& echo "$(CLIENTS)" > $(VENV)/clients/.installed \
			|| echo "make: npm install failed; the real-client tests will be skipped"; \
	fi

# Never fails the build: without Chromium the browser tests say why they skip.
browser:
	@if [ ! -x $(CHROMIUM) ] && command -v apt-get >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"; \
		else echo "make: $(CHROMIUM) missing and apt needs root; the browser tests will be skipped"; exit 0; fi; \
		echo "make: installing Debian's chromium for the panel's browser tests"; \
		$$SUDO apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null \
			|| echo "make: apt-get install chromium failed; the browser tests will be skipped"; \
	fi

demo: $(STAMP)
	$(BIN)/python examples/demo.py

# Every benchmark and eval, then docs/benchmarks.md (benchmarks/run_all.py --help; --only NAME reruns one).
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(BIN)/python benchmarks/run_all.py

# The property tests under the long hypothesis profile (thousands of examples, random), then
# fault injection at scale: SIGKILLs, ENOSPC at every write, permission flips (issue 13).
# Reproduce a fault run with `$(BIN)/python fuzz/faults_at_scale.py --seed N`.
.PHONY: fuzz
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -q -p no:cacheprovider tests/properties/test_properties.py
	$(BIN)/python fuzz/faults_at_scale.py

clean:
	rm -rf $(VENV) build src/*.egg-info
