# chbench: the user's two commands are `make experiments` and `make test`.
# Everything else (dependencies, configure, build) happens on the way.
#
#   make experiments [TIER=smoke|default|full]   sweeps, then plots and report
#   make test            build and run every test (ctest)
#   make test-sanitize   the same under AddressSanitizer + UBSan
#   make plots / make report   figures and results/REPORT.md from the CSVs
#                        (another TIER: plots/figures-<tier>, REPORT-<tier>.md)
#   make deps            install missing Debian packages (root) or say how

SHELL := /bin/bash
BUILD ?= build
BUILD_SAN ?= build-sanitize
TIER ?= default
JOBS ?= $(shell nproc)
PYTHON := /usr/bin/python3
CHBENCH := $(BUILD)/experiments/chbench

# The default tier's figures and report are the reference (committed, and the
# source of the README's headline block); another tier writes beside them, so
# `make experiments TIER=full` does not replace what `make experiments` made.
ifeq ($(TIER),default)
FIGURES := plots/figures
REPORT := results/REPORT.md
README_FLAG := --readme README.md
else
FIGURES := plots/figures-$(TIER)
REPORT := results/REPORT-$(TIER).md
README_FLAG :=
endif

# Debian 12 packages the suite needs, build and run.
DEB_PACKAGES := cmake g++ make pkg-config git \
  libbenchmark-dev libabsl-dev libxxhash-dev libmurmurhash-dev \
  libboost-math-dev libgtest-dev libgmock-dev libssl-dev libtomlplusplus-dev \
  libcli11-dev libmemcached-dev python3-matplotlib python3-pandas wamerican

.PHONY: all deps build bench test test-sanitize experiments plots report clean

all: build

# Installs what is missing: apt-get when root, otherwise print the command.
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	done | tr '\n' ' '); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "chbench: installing missing packages: $$missing"; \
	    export DEBIAN_FRONTEND=noninteractive; \
	    apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing || exit 1; \
	  else \
	    echo "chbench: missing Debian packages: $$missing"; \
	    echo "chbench: install them with:"; \
	    echo "  sudo apt-get update && sudo apt-get install -y $$missing"; \
	    echo "chbench: then rerun make."; \
	    exit 1; \
	  fi; \
	fi

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

bench: build
	cmake --build $(BUILD) -j $(JOBS) --target chbench_bench_main

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# -O1 -g, as the sanitizers' documentation recommends: readable reports and a
# build much faster than -O2. Slow tests (pipeline, report) are skipped: they
# exercise no code that the other tests do not, only more of it.
test-sanitize: deps
	cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Sanitize -DCHBENCH_SANITIZE=ON
	cmake --build $(BUILD_SAN) -j $(JOBS)
	cd $(BUILD_SAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -LE slow

experiments: build
	$(CHBENCH) run all --tier $(TIER)
	@$(MAKE) --no-print-directory plots report

plots: deps
	$(PYTHON) plots/make_figures.py --results results --out $(FIGURES) --tier $(TIER)

report: deps
	$(PYTHON) plots/make_report.py --results results --figures $(FIGURES) --out $(REPORT) $(README_FLAG) --tier $(TIER)

clean:
	rm -rf $(BUILD) $(BUILD_SAN)
