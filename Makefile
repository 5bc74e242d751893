GO ?= go
SHELL := bash
BIN := bin/kubectl-schedscope
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/schedscope/schedscope/engine.Version=$(VERSION)

.PHONY: build test lint bench run clean fuzz goldens release

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/kubectl-schedscope

run: build
	./$(BIN) explain

# test: the end-to-end packages start real control planes, and the trace tests
# build the OTLP receiver's module on first use (minutes on a cold cache),
# so a package gets 30 minutes rather than go test's default 10.
test:
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 30m ./...

# goldens re-records tui/testdata/*.rec from the current engine and refreshes
# the TUI's golden screens; review the diff. (make test checks the recordings
# still tell the story the engine tells.)
goldens:
	$(GO) test -count=1 ./cmd/kubectl-schedscope/ -run TestTUIRecordingsAreCurrent -update-recordings
	$(GO) test -count=1 ./tui/ -update

# fuzz runs every fuzz test for FUZZTIME each (go test runs one fuzz target
# per invocation). CI runs it briefly; run it longer by hand. CI gives counts
# (FUZZTIME=3000x), not durations: a duration races Go's fuzz coordinator
# (golang/go#75804) and fails with "context deadline exceeded" having found
# nothing. FUZZMINTIME bounds minimizing each new interesting input, which
# otherwise takes up to 60 s per input of the fixture loader.
FUZZTIME ?= 60s
FUZZMINTIME ?= 200x
FUZZ_TARGETS := ./cmd/kubectl-schedscope/commands:FuzzChangeFlags ./engine/fixture:FuzzLoadFixture ./engine/fixture:FuzzBlockYAML ./engine:FuzzLoadConfig ./recorder:FuzzReader ./recorder:FuzzFile ./recorder:FuzzInts ./recorder:FuzzIndex ./recorder/export:FuzzExport
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; name=$${t##*:}; \
	  echo "fuzz $$name ($$pkg) for $(FUZZTIME)"; \
	  $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINTIME) -parallel 2 $$pkg; \
	done

lint:
	@out=$$(gofmt -l cmd engine recorder fixtures tui); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# bench runs every benchmark, keeps the raw output (benchstat reads it) and
# writes the results table the README links.
bench:
	@mkdir -p .bench
	set -o pipefail; { \
	  $(GO) test -run '^$$' -bench 'RecordingOverhead' -benchtime 3x -timeout 60m ./engine && \
	  $(GO) test -run '^$$' -bench 'RecordCommand' -benchtime 3x -timeout 60m ./engine && \
	  $(GO) test -run '^$$' -bench 'DeploymentVersusBarePods' -benchtime 3x -timeout 30m ./engine && \
	  $(GO) test -run '^$$' -bench 'RecordOTLP' -benchtime 3x -timeout 30m ./cmd/kubectl-schedscope/commands && \
	  $(GO) test -run '^$$' -bench 'SnapshotScale' -benchtime 3x -timeout 30m ./engine && \
	  $(GO) test -run '^$$' -bench 'WriteCycle|LargestCluster' -timeout 30m ./engine && \
	  $(GO) test -run '^$$' -bench 'Replay1GB' -benchtime 3x -timeout 30m ./recorder && \
	  $(GO) test -run '^$$' -bench 'ReplayBinary' -benchtime 1x -timeout 30m ./cmd/kubectl-schedscope && \
	  $(GO) test -run '^$$' -bench . -timeout 20m ./tui && \
	  $(GO) test -run '^$$' -bench 'VersusKubeScheduler' -benchtime 1x -timeout 40m ./engine/e2e 2>/dev/null | grep -v '^ '; } | tee .bench/raw.txt
	@awk -v machine="$$(nproc) cores, $$(awk '/MemTotal/ {printf "%.0f GiB", $$2/1048576}' /proc/meminfo), $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')" \
	  -v when="$$(date -u +%Y-%m-%d)" -v goversion="$$($(GO) env GOVERSION)" -v load="$$(cut -d' ' -f1-3 /proc/loadavg)" \
	  -f .bench/table.awk .bench/raw.txt > .bench/results.md
	@cat .bench/results.md

# release builds stripped binaries for linux and darwin, amd64 and arm64,
# with the version stamped, as tarballs with sha256 files and the krew
# manifest, in dist/ (.ci/release): make release VERSION=v0.1.0
release:
	VERSION=$(VERSION) GO=$(GO) bash .ci/release

clean:
	rm -rf bin dist
