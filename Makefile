GO ?= go
BIN := bin/kubectl-schedscope
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X github.com/schedscope/schedscope/engine.Version=$(VERSION)

.PHONY: build test lint bench run clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/kubectl-schedscope

run: build
	./$(BIN) explain

test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

lint:
	@out=$$(gofmt -l cmd engine recorder fixtures); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin
