# trainreport: see README.md.
GO        ?= go
BUF_VERSION          := v1.57.2
PROTOC_GEN_GO_VERSION := v1.36.12
TOOLS     := $(CURDIR)/.tools
PYTHON    ?= python3
# The tests' Python environments live in the user's cache, not in the
# checkout: about 500 MB that every clone would otherwise build again.
CACHE_HOME ?= $(if $(XDG_CACHE_HOME),$(XDG_CACHE_HOME),$(HOME)/.cache)/trainreport
VENV      ?= $(CACHE_HOME)/venv
PY_DEPS   := tensorboard==2.21.0
MOTO_VENV ?= $(CACHE_HOME)/moto-venv
MOTO_DEPS := moto[server]==5.2.5
# The Google Cloud Storage and Azure emulators of the gs:// and az:// tests,
# beside the venvs: fake-gcs-server's binary (built with go install) and
# Azurite (npm).
FAKE_GCS_DIR     ?= $(CACHE_HOME)/fake-gcs
FAKE_GCS_VERSION := v1.56.1
AZURITE_DIR      ?= $(CACHE_HOME)/azurite
AZURITE_VERSION  := 3.37.0
# CLOUD_TAGS are the build tags of every object storage driver (README.md).
CLOUD_TAGS := s3 gcs azure

.PHONY: all build build-cloud test-moto test-gcs test-azurite test vet-cloud demo generate bench bench-build bench-peers bench-logs bench-venv pgo fmt vet clean test-deps test-python fuzz test-slurm bench-slurm

all: build

build:
	$(GO) build -o bin/trainreport ./cmd/trainreport

# build-cloud builds bin/trainreport-cloud, which reads log directories in
# S3, Google Cloud Storage and Azure Blob Storage buckets (the default
# build says how to get one that does).
build-cloud:
	$(GO) build -tags "$(CLOUD_TAGS)" -o bin/trainreport-cloud ./cmd/trainreport

# demo writes a small example logdir and renders it into report/.
demo:
	rm -rf examples/demo/logs
	$(GO) run ./examples/demo -o examples/demo/logs
	$(GO) run ./cmd/trainreport -o report examples/demo/logs
	@echo "open report/index.html"

# test runs every test, installing what the browser tests and the
# comparison with TensorBoard's own reader need first. TEST_TIMEOUT bounds
# each package's test binary: cmd/trainreport, the slowest (its browser
# tests), took 463 s alone on the 2-core machine shared with six other
# agents' builds (load average 21 to 25; 1,134 s before its browser tests
# shared one chromium and ran two at a time: docs/DEVELOPMENT.md); 20
# minutes leaves it more than twice that, and Go's default of 10 too little.
TEST_TIMEOUT ?= 20m
#
# The gs:// and az:// tests run once more, with the drivers' build tags,
# against fake-gcs-server and Azurite (installed by test-gcs and
# test-azurite, started and stopped by the tests): only those tests, since
# the rest of cmd/trainreport ran untagged already.
test: test-deps test-python test-moto test-gcs test-azurite
	$(GO) vet ./...
	$(GO) vet -tags slurm ./cmd/trainreport
	TRAINREPORT_PYTHON=$(VENV)/bin/python TRAINREPORT_MOTO=$(MOTO_VENV)/bin/moto_server $(GO) test -count=1 -timeout $(TEST_TIMEOUT) ./...
	TRAINREPORT_MOTO=$(MOTO_VENV)/bin/moto_server $(GO) test -count=1 -timeout 5m -tags s3 ./collect/logfs
	TRAINREPORT_FAKE_GCS=$(FAKE_GCS_DIR)/fake-gcs-server TRAINREPORT_AZURITE=$(AZURITE_DIR)/node_modules/.bin/azurite-blob \
	  $(GO) test -count=1 -timeout 10m -tags "gcs azure" -run '^(TestGCS|TestAzur)' ./cmd/trainreport

# vet-cloud vets the object storage drivers' files (build tags s3, gcs,
# azure) together; .ci/run runs it. The Google Cloud Storage and Azure SDKs
# it needs (25 s and 335 MB of module cache, 103 MB of zips) are
# downloaded by `make test` too now, for the gcs and azure tests.
vet-cloud:
	$(GO) vet -tags "$(CLOUD_TAGS)" ./collect/logfs

# test-deps installs Debian's chromium for the real-browser tests when it is
# missing (CI machines start without it).
test-deps:
	@command -v chromium >/dev/null 2>&1 || sh ./.ci/install-chromium

# test-python makes a virtual environment holding TensorBoard's reader for
# collect's TestAgreesWithTensorBoard; it does nothing once it is there.
test-python:
	@PYTHON=$(PYTHON) sh ./.ci/python-venv $(VENV) $(PY_DEPS)

# test-slurm runs the Slurm integration tests (build tag slurm,
# cmd/trainreport/slurm_test.go): a one-node cluster on localhost (munged,
# slurmctld, slurmd on free ports, everything in a temporary folder) that
# the test starts and stops, examples/slurm's job array and merge job on a
# generated sweep, and the merged report compared byte for byte with a
# direct build. It installs Debian's slurm-wlm and munge first when they
# are missing (.ci/install-slurm); it runs as root, as slurmd must.
test-slurm:
	@sh ./.ci/install-slurm
	$(GO) test -count=1 -tags slurm -run '^TestSlurm' -timeout 15m -v ./cmd/trainreport

# bench-slurm measures the same on a sweep, once: the direct build against
# 8 shards collected by the job array and merged (wall time, peak RSS of
# each job); TRAINREPORT_SLURM_SWEEP=DIR names the sweep (default: one of
# 400 runs generated for it). See docs/SHARDS.md for the figures.
bench-slurm:
	@sh ./.ci/install-slurm
	$(GO) test -count=1 -tags slurm -run '^$$' -bench '^BenchmarkSlurmShards$$' -benchtime 1x -timeout 30m -v ./cmd/trainreport

# test-moto makes a virtual environment holding moto's S3 server, which
# cmd/trainreport's TestMotoSweepEqualsDisk starts on 127.0.0.1 and stops;
# it does nothing once it is there.
test-moto:
	@PYTHON=$(PYTHON) sh ./.ci/moto-venv $(MOTO_VENV) '$(MOTO_DEPS)'

# test-gcs builds fake-gcs-server (.ci/fake-gcs) into FAKE_GCS_DIR for
# cmd/trainreport's TestGCS* tests (build tag gcs); test-azurite installs
# Azurite with npm (.ci/azurite) into AZURITE_DIR for its TestAzur* tests
# (build tag azure). Each does nothing once its version is there.
test-gcs:
	@GO=$(GO) sh ./.ci/fake-gcs $(FAKE_GCS_DIR) $(FAKE_GCS_VERSION)

test-azurite:
	@sh ./.ci/azurite $(AZURITE_DIR) $(AZURITE_VERSION)

# fuzz runs every fuzz target of the repository, one after the other, for
# FUZZTIME each (all of them, then it fails if any did); it is not part of
# `make test`. The targets are found by grepping the test files Git knows
# of (committed or not, ignored ones left out) for `func Fuzz`. An input
# that fails a target is written under its package's testdata/fuzz/<target>/,
# where every `go test` replays it: commit it with the fix. FUZZFLAGS passes
# flags to go test (for example -parallel 1 on a shared machine).
FUZZTIME  ?= 10s
FUZZFLAGS ?=
fuzz:
	@git ls-files --cached --others --exclude-standard '*_test.go' | sort | { \
	  failed=""; \
	  while read -r f; do \
	    for t in $$(sed -nE 's/^func (Fuzz[A-Za-z0-9_]*)\(.*/\1/p' "$$f"); do \
	      echo "== ./$$(dirname "$$f") $$t"; \
	      $(GO) test -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) $(FUZZFLAGS) "./$$(dirname "$$f")" || failed="$$failed $$t"; \
	    done; \
	  done; \
	  if [ -n "$$failed" ]; then echo "fuzz: failed:$$failed"; exit 1; fi; \
	}

# generate rebuilds the Go code of our .proto files with pinned tools.
generate:
	GOBIN=$(TOOLS) $(GO) install github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION)
	GOBIN=$(TOOLS) $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
	cd collect/eventpb && PATH="$(TOOLS):$$PATH" buf generate
	cd collect/mindspore/mspb && PATH="$(TOOLS):$$PATH" buf generate

# bench runs the Go micro-benchmarks, then cmd/benchpeers: trainreport
# against TensorBoard's Rust and Python loaders and tbparse on a generated
# log directory (examples/synth; generated once under .cache/bench-logs and
# reused), with the peers installed in .cache/bench-venv. The default is the
# documented size, 8 runs x 10 scalar tags x 250,000 steps plus 2 histogram
# and 1 image tag per run; `make bench BENCH_STEPS=25000` is a quick one.
# BENCH_FLAGS passes flags to benchpeers (e.g. -tools crc,collect,report,tb-rust
# -repeat 5); `make bench-peers` skips the Go micro-benchmarks.
BENCH_RUNS      ?= 8
BENCH_TAGS      ?= 10
BENCH_STEPS     ?= 250000
BENCH_HISTOGRAM ?= 2
BENCH_IMAGE     ?= 1
BENCH_FLAGS     ?=
BENCH_LOGDIR    := .cache/bench-logs/r$(BENCH_RUNS)-t$(BENCH_TAGS)-s$(BENCH_STEPS)-h$(BENCH_HISTOGRAM)-i$(BENCH_IMAGE)
BENCH_VENV      := $(CURDIR)/.cache/bench-venv
BENCH_PY_DEPS   := tensorboard==2.21.0 tbparse==0.0.9

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	@$(MAKE) --no-print-directory bench-peers

bench-peers: build bench-venv bench-logs
	$(GO) run ./cmd/benchpeers -trainreport bin/trainreport -python $(BENCH_VENV)/bin/python $(BENCH_FLAGS) $(BENCH_LOGDIR)

# bench-build measures what the report costs beside collection alone, the
# build-cost targets of docs/PERFORMANCE.md: cmd/benchpeers' collect, part and
# report rows (BUILD_REPEAT interleaved rounds, medians) on 8 runs x 10 tags
# x 100,000 steps (8 M points) and on examples/synth sweeps of
# BUILD_SWEEPS runs x 5 tags x 1,000 steps (`make bench-build
# BUILD_SWEEPS="2000 10000"` adds the 10,000-run one: 1.6 GB of logs and a
# few minutes). The logs are generated once under .cache/bench-logs.
BUILD_REPEAT ?= 5
BUILD_SWEEPS ?= 2000
bench-build: build
	@$(MAKE) --no-print-directory bench-logs BENCH_RUNS=8 BENCH_TAGS=10 BENCH_STEPS=100000 BENCH_HISTOGRAM=0 BENCH_IMAGE=0
	$(GO) run ./cmd/benchpeers -trainreport bin/trainreport -tools collect,part,report -repeat $(BUILD_REPEAT) .cache/bench-logs/r8-t10-s100000-h0-i0
	@for n in $(BUILD_SWEEPS); do \
	  d=.cache/bench-logs/sweep-r$$n-t5-s1000; \
	  test -d $$d || { rm -rf $$d.tmp && $(GO) run ./examples/synth -sweep -runs $$n -tags 5 -steps 1000 -o $$d.tmp && mv $$d.tmp $$d; } || exit 1; \
	  $(GO) run ./cmd/benchpeers -trainreport bin/trainreport -tools collect,part,report -repeat $(BUILD_REPEAT) $$d || exit 1; \
	done

# bench-logs generates $(BENCH_LOGDIR) unless it is there (written aside,
# then renamed, so an interrupted run leaves nothing half-written).
bench-logs:
	@test -d $(BENCH_LOGDIR) || { rm -rf $(BENCH_LOGDIR).tmp && \
	  $(GO) run ./examples/synth -runs $(BENCH_RUNS) -tags $(BENCH_TAGS) -steps $(BENCH_STEPS) \
	    -histogram-tags $(BENCH_HISTOGRAM) -image-tags $(BENCH_IMAGE) -o $(BENCH_LOGDIR).tmp && \
	  mv $(BENCH_LOGDIR).tmp $(BENCH_LOGDIR); }

# bench-venv makes the virtual environment of the peers (pinned TensorBoard,
# which brings tensorboard-data-server, its Rust loader, and tbparse); it
# does nothing once it holds those versions.
bench-venv:
	@$(BENCH_VENV)/bin/python -c "import sys, tensorboard, tensorboard_data_server, tbparse.version as t; \
	  sys.exit(tensorboard.__version__ != '2.21.0' or t.VERSION != '0.0.9')" >/dev/null 2>&1 || \
	  { rm -rf $(BENCH_VENV) && PYTHON=$(PYTHON) sh ./.ci/python-venv $(BENCH_VENV) $(BENCH_PY_DEPS); }

# pgo profiles trainreport building five reports of the 2M-point benchmark
# logdir and merges the profiles into cmd/trainreport/default.pgo, which
# `go build` uses for profile-guided optimisation (mostly inlining on the
# record-decoding and number-formatting paths: about a third less CPU).
# Rerun it after changing those paths; the profile is committed.
PGO_LOGDIR := .cache/bench-logs/r8-t10-s25000-h2-i1
pgo:
	@$(MAKE) --no-print-directory bench-logs BENCH_STEPS=25000
	$(GO) build -pgo=off -o bin/trainreport-nopgo ./cmd/trainreport
	rm -rf .cache/pgo && mkdir -p .cache/pgo
	for i in 1 2 3 4 5; do bin/trainreport-nopgo -quiet -cpuprofile .cache/pgo/$$i.prof -o .cache/pgo/report $(PGO_LOGDIR) || exit 1; done
	$(GO) tool pprof -proto .cache/pgo/*.prof > cmd/trainreport/default.pgo

fmt:
	gofmt -l -w $$(git ls-files '*.go' | grep -v '\.pb\.go$$')

clean:
	rm -rf bin report examples/demo/logs
