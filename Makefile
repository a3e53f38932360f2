# chbench: the user's two commands are `make experiments` and `make test`.
# Everything else (dependencies, configure, build) happens on the way.
#
#   make experiments [TIER=smoke|default|full] [FLAVOR=portable|native]
#                        sweeps into results/local (git-ignored), then figures
#                        and results/local/REPORT.md (its per-question pages
#                        in results/local/report/) with the committed
#                        reference machine's numbers beside yours
#   make test            build and run every test (ctest)
#   make test-sanitize   the same under AddressSanitizer + UBSan
#   make plots / make report   figures and report from the CSVs already there
#   make reference [TIER=...]  regenerate the committed reference run of this
#                        machine: results/reference/<machine>/, plots/figures*/,
#                        results/REPORT*.md with their pages (results/report*/)
#                        and the README headline
#   make reference-reruns [TIER=...] [RERUNS=2]  run the timing experiments
#                        again, RERUNS more times (each pass a fresh process
#                        per experiment), into results/reference/<machine>/
#                        reruns/<k>/: the report's between-run spread
#   make verify-presets  install the real systems (libmemcached, nutcracker,
#                        uhashring, nginx, HAProxy, groupcache, Guava, the
#                        pinned npm packages), run them on 6,300 keys and
#                        require chbench's presets to map every key the same
#                        (and give the same replica lists: verify/replicas.tsv)
#   make test-slurm      (root) a single-node Slurm cluster on this machine runs
#                        the smoke tier as 3 array shards + merge, checked
#                        against an unsharded run (experiments/slurm/)
#   make fuzz [FUZZ_SECONDS=30]  build the libFuzzer targets of fuzz/ with
#                        clang, ASan and UBSan in build-fuzz/ and run each for
#                        FUZZ_SECONDS from its committed seeds (copied to
#                        build-fuzz/corpus/); fails on any finding, whose input
#                        is kept in build-fuzz/artifacts/<target>/
#   make deps            install missing Debian packages (root) or say how
#   make site-deps       what the results site and its browser test need:
#                        Debian's chromium (and nodejs, npm when missing)
#                        and the pinned npm packages (plots/site/npm/) in
#                        $(BUILD)/site-npm; without root it prints the
#                        apt-get command and the browser test skips
#
# FLAVOR=portable (default) builds with -O2; FLAVOR=native with -O3
# -march=native, in build-native/, writing results/local-native. meta.json and
# the report say which flags produced a run.

SHELL := /bin/bash
TIER ?= default
FLAVOR ?= portable
JOBS ?= $(shell nproc)
PYTHON := /usr/bin/python3
BUILD_SAN ?= build-sanitize
ifeq ($(FLAVOR),native)
BUILD ?= build-native
NATIVE_FLAG := -DCHBENCH_NATIVE=ON
LOCAL := results/local-native
else ifeq ($(FLAVOR),portable)
BUILD ?= build
NATIVE_FLAG := -DCHBENCH_NATIVE=OFF
LOCAL := results/local
else
$(error FLAVOR must be portable or native, got '$(FLAVOR)')
endif
CHBENCH := $(BUILD)/experiments/chbench

# The machine a reference run is named by: CPU model words and logical CPUs,
# e.g. amd-epyc-2cpu.
MACHINE ?= $(shell experiments/machine_name.sh)
# The committed reference shown beside a user's numbers: this machine's own
# (results/reference/$(MACHINE)) when it has a run not marked stale in its
# meta.json, else the first machine under results/reference/ that has one
# (or none); plots/chdata.py pick_reference decides.
REFERENCE ?= $(shell $(PYTHON) plots/chdata.py pick-reference results/reference $(MACHINE))

ifeq ($(TIER),default)
TIER_SUFFIX :=
else
TIER_SUFFIX := -$(TIER)
endif

# Debian 12 packages the suite needs, build and run (memcached: the cluster
# experiment starts its own servers on 127.0.0.1 and free ports; the
# package's system service is not started during the install).
DEB_PACKAGES := cmake ninja-build g++ make pkg-config git \
  libbenchmark-dev libabsl-dev libxxhash-dev libmurmurhash-dev \
  libboost-math-dev libgtest-dev libgmock-dev libssl-dev libtomlplusplus-dev \
  libcli11-dev libmemcached-dev memcached python3-matplotlib python3-pandas \
  wamerican

# The real systems `make verify-presets` runs (Debian 12 packages). node and
# npm come from Debian unless they are already on PATH.
VERIFY_DEB_PACKAGES := gcc libmemcached-dev nutcracker python3-uhashring \
  nginx-light haproxy golang-go golang-github-golang-groupcache-dev \
  libguava-java openjdk-17-jdk-headless ceph-common \
  $(if $(shell command -v node && command -v npm),,nodejs npm)
VERIFY_OUT := $(BUILD)/verify-presets/out

# The fuzz build (fuzz/README.md): clang with libFuzzer, ASan and UBSan.
BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 30
FUZZ_DEB_PACKAGES := clang libclang-rt-14-dev
FUZZERS := ops_fuzzer spec_fuzzer map_input_fuzzer

.PHONY: all deps build test test-sanitize experiments plots report reference reference-reruns clean verify-presets fuzz site-deps site-npm

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
	    made_policy=; if [ ! -e /usr/sbin/policy-rc.d ]; then \
	      printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && made_policy=1; \
	    fi; \
	    apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing; rc=$$?; \
	    [ -z "$$made_policy" ] || rm -f /usr/sbin/policy-rc.d; \
	    [ $$rc = 0 ] || exit 1; \
	  else \
	    echo "chbench: missing Debian packages: $$missing"; \
	    echo "chbench: install them with:"; \
	    echo "  sudo apt-get update && sudo apt-get install -y $$missing"; \
	    echo "chbench: then rerun make."; \
	    exit 1; \
	  fi; \
	fi

# Ninja: unlike CMake's Makefiles, it compiles a target's objects while the
# libraries it links are still compiling, which kept a core idle for minutes
# of a fresh build. A build directory configured earlier keeps its generator.
GENERATOR = $(if $(wildcard $(1)/CMakeCache.txt),,-G Ninja)

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) $(call GENERATOR,$(BUILD)) -DCMAKE_BUILD_TYPE=Release $(NATIVE_FLAG)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

test: build site-deps
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The results site (plots/site/): the chart library it copies and the
# browser its test drives. The chart library comes from the npm packages
# pinned by plots/site/npm/package-lock.json (npm ci into $(SITE_NPM));
# Debian's chromium is installed when run as root. Without root a missing
# chromium is only reported (with the apt-get command): the browser test
# then skips, saying why, and everything else still runs.
SITE_NPM := $(BUILD)/site-npm
SITE_DEB_PACKAGES := chromium $(if $(shell command -v node && command -v npm),,nodejs npm)
site-npm:
	@command -v node >/dev/null && command -v npm >/dev/null || \
	  $(MAKE) --no-print-directory deps DEB_PACKAGES="nodejs npm"
	plots/site/npm/install.sh $(SITE_NPM)

site-deps:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(SITE_DEB_PACKAGES)" || \
	  echo "chbench: without chromium the results site's browser test is skipped"
	@$(MAKE) --no-print-directory site-npm || \
	  echo "chbench: without the npm packages the results site's browser test is skipped"

# -O1 -g, as the sanitizers' documentation recommends: readable reports and a
# build much faster than -O2. Skipped: the slow tests (pipeline, report:
# they exercise no code that the other tests do not, only more of it) and
# the site's browser test (no C++).
test-sanitize: deps
	cmake -S . -B $(BUILD_SAN) $(call GENERATOR,$(BUILD_SAN)) -DCMAKE_BUILD_TYPE=Sanitize -DCHBENCH_SANITIZE=ON
	cmake --build $(BUILD_SAN) -j $(JOBS)
	cd $(BUILD_SAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -LE "slow|site"

# The figures and the report (then the site) read the same CSVs and nothing
# of each other's: they run side by side.
experiments: build
	$(CHBENCH) run all --tier $(TIER) --results-dir $(LOCAL)
	@$(MAKE) --no-print-directory -j 2 plots report

plots: deps
	$(PYTHON) plots/make_figures.py --results $(LOCAL) --out $(LOCAL)/figures$(TIER_SUFFIX) --tier $(TIER)

# The pages (one per question) go beside the report, named like the figures:
# report/ for REPORT.md, report-full/ for REPORT-full.md.
report: deps site-npm
	$(PYTHON) plots/make_report.py --results $(LOCAL) $(if $(REFERENCE),--reference $(REFERENCE)) \
	  --figures $(LOCAL)/figures$(TIER_SUFFIX) --out $(LOCAL)/REPORT$(TIER_SUFFIX).md \
	  --pages $(LOCAL)/report$(TIER_SUFFIX) --tier $(TIER)
	$(PYTHON) plots/site/build.py --results $(LOCAL) $(if $(REFERENCE),--reference $(REFERENCE)) \
	  --out $(LOCAL)/site$(TIER_SUFFIX) --npm $(SITE_NPM) --tier $(TIER)
	@echo "chbench: report in $(LOCAL)/REPORT$(TIER_SUFFIX).md, pages in $(LOCAL)/report$(TIER_SUFFIX)/, site $(LOCAL)/site$(TIER_SUFFIX)/index.html"

# The committed reference of this machine (portable flavor only). The default
# tier also rewrites the README headline.
reference: build site-npm
	@[ "$(FLAVOR)" = portable ] || { echo "chbench: the reference is the portable build"; exit 2; }
	$(CHBENCH) run all --tier $(TIER) --results-dir results/reference/$(MACHINE)
	$(PYTHON) plots/make_figures.py --results results/reference/$(MACHINE) \
	  --out plots/figures$(TIER_SUFFIX) --tier $(TIER)
	$(PYTHON) plots/make_report.py --results results/reference/$(MACHINE) \
	  --figures plots/figures$(TIER_SUFFIX) --out results/REPORT$(TIER_SUFFIX).md \
	  --pages results/report$(TIER_SUFFIX) --tier $(TIER) \
	  $(if $(TIER_SUFFIX),,--readme README.md)
	$(PYTHON) plots/site/build.py --results results/reference/$(MACHINE) \
	  --out results/site$(TIER_SUFFIX) --npm $(SITE_NPM) --tier $(TIER)

# Independent process runs of the experiments with timing rows, beside the
# reference run (same spec and tier, hence the same run id): the report pairs
# their cells and states how far a rerun moves a median (plots/report/
# reruns.py). Passes run one after another, each over every experiment, so
# the runs of one experiment are minutes apart.
TIMING_EXPERIMENTS := lookup build hashes overprovision presets removal
RERUNS ?= 2
reference-reruns: build
	@[ "$(FLAVOR)" = portable ] || { echo "chbench: the reference is the portable build"; exit 2; }
	@set -e; for k in $$(seq 1 $(RERUNS)); do for e in $(TIMING_EXPERIMENTS); do \
	  $(CHBENCH) run $$e --tier $(TIER) --results-dir results/reference/$(MACHINE)/reruns/$$k; \
	done; done

# Runs the real systems (servers on 127.0.0.1 only, stopped by PID) and
# compares chbench's presets with them key by key; fails on any difference,
# and when a real system's output changed from the committed test data.
# Package installs never start system services (policy-rc.d, above).
verify-presets: build
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(VERIFY_DEB_PACKAGES)"
	algorithms/presets/verify/npm/install.sh $(BUILD)/verify-presets/npm
	rm -rf $(VERIFY_OUT)
	CHBENCH_VERIFY_NPM_DIR=$(abspath $(BUILD))/verify-presets/npm \
	  algorithms/presets/verify/run_all.sh $(VERIFY_OUT)
	algorithms/presets/verify/compare.sh $(CHBENCH) $(VERIFY_OUT)
	CEPH_BIN=$$(algorithms/presets/verify/ceph/fetch_ceph_base.sh \
	  $(abspath $(BUILD))/verify-presets/ceph-base) \
	  algorithms/presets/verify/ceph/run_all.sh $(VERIFY_OUT)/ceph
	algorithms/presets/verify/ceph/compare.sh $(CHBENCH) $(VERIFY_OUT)/ceph

# A real single-node Slurm cluster on this machine (Debian's slurmctld, slurmd,
# munge; 127.0.0.1, free ports, a temporary directory, daemons stopped by PID
# on every exit path; no system service is started): the smoke tier through
# experiments/slurm/submit.sh as 3 shards + the merge job, compared with an
# unsharded run. See experiments/slurm/README.md.
.PHONY: test-slurm
test-slurm: build
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="slurmctld slurmd slurm-client munge"
	experiments/slurm/test_slurm.sh $(CHBENCH) $(BUILD)/experiments/experiments_slow_test
# Each target runs for FUZZ_SECONDS on a scratch corpus (the committed seeds
# plus what earlier runs found), never writing into fuzz/corpus/. An input
# over 2 GB of RSS or malloc, a crash, a sanitizer report or a broken
# invariant stops that target with its input saved; the others still run.
fuzz: deps
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(FUZZ_DEB_PACKAGES)"
	CC=clang CXX=clang++ cmake -S . -B $(BUILD_FUZZ) $(call GENERATOR,$(BUILD_FUZZ)) -DCHBENCH_FUZZ=ON
	cmake --build $(BUILD_FUZZ) -j $(JOBS)
	@mkdir -p $(BUILD_FUZZ)/logs; failed=; summary=; \
	for t in $(FUZZERS); do \
	  corpus=$(BUILD_FUZZ)/corpus/$$t; art=$(BUILD_FUZZ)/artifacts/$$t/; \
	  log=$(BUILD_FUZZ)/logs/$$t.log; \
	  mkdir -p $$corpus $$art; cp fuzz/corpus/$$t/* $$corpus/; \
	  dict=; [ ! -f fuzz/$$t.dict ] || dict=-dict=fuzz/$$t.dict; \
	  echo "chbench: fuzzing $$t for $(FUZZ_SECONDS) s (log $$log)"; \
	  UBSAN_OPTIONS=print_stacktrace=1 $(BUILD_FUZZ)/fuzz/$$t $$corpus $$dict \
	    -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 \
	    -malloc_limit_mb=2048 -timeout=60 -print_final_stats=1 \
	    -artifact_prefix=$$art > $$log 2>&1; rc=$$?; \
	  done_line=$$(grep -E '^Done [0-9]+ runs in [0-9]+ second' $$log | tail -1); \
	  if [ $$rc = 0 ] && [ -n "$$done_line" ]; then \
	    runs=$$(echo "$$done_line" | awk '{print $$2}'); \
	    secs=$$(echo "$$done_line" | awk '{print $$5}'); \
	    summary+=$$(printf '  %-17s %10s executions in %4s s, %7s exec/s' \
	      $$t $$runs $$secs $$(( runs / (secs > 0 ? secs : 1) )))$$'\n'; \
	  else \
	    tail -n 60 $$log; failed+=" $$t"; \
	    summary+="  $$t: FINDING (exit $$rc): log $$log, input in $$art"$$'\n'; \
	  fi; \
	done; \
	echo "chbench: fuzz summary (FUZZ_SECONDS=$(FUZZ_SECONDS), rss/malloc limit 2048 MB)"; \
	printf '%s' "$$summary"; \
	[ -z "$$failed" ] || { echo "chbench: fuzz findings in:$$failed"; exit 1; }

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_FUZZ)
