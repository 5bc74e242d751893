// Package otlptest starts the OTLP receiver of schedscope's trace tests
// (../testreceiver: the OpenTelemetry Collector's own otlpreceiver with an
// in-memory consumer, a module of its own) and reads back what it received.
// Silent (silent.go) is the other end: a backend that accepts and never
// answers. It is for tests, as net/http/httptest is.
package otlptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// A Receiver is a running testreceiver.
type Receiver struct {
	// GRPC is its OTLP/gRPC address (HOST:PORT), HTTP its OTLP/HTTP base URL.
	GRPC string `json:"grpc"`
	HTTP string `json:"http"`
	// SpansURL lists what it received.
	SpansURL string `json:"spans"`
}

// Span is a span as the receiver lists it: IDs in hex, attribute values as
// strings (lists as JSON).
type Span struct {
	Trace    string            `json:"trace"`
	ID       string            `json:"id"`
	Parent   string            `json:"parent"`
	Name     string            `json:"name"`
	Start    time.Time         `json:"start"`
	End      time.Time         `json:"end"`
	Attrs    map[string]string `json:"attrs"`
	Resource map[string]string `json:"resource"`
	Events   []Event           `json:"events"`
}

// Event is a span event.
type Event struct {
	Name  string            `json:"name"`
	Time  time.Time         `json:"time"`
	Attrs map[string]string `json:"attrs"`
}

// Start runs the receiver (go run, which builds it once and keeps the
// build in Go's cache) under the command under names, if any (nice -n 19),
// until the test ends.
func Start(t testing.TB, under ...string) Receiver {
	t.Helper()
	_, self, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("otlptest: cannot tell where its sources are")
	}
	argv := append(under, "go", "run", ".")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = filepath.Join(filepath.Dir(self), "..", "testreceiver")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // it stops when its standard input closes
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadBytes('\n')
	if err != nil {
		cmd.Wait()
		t.Fatalf("testreceiver printed no endpoints: %v\n%s", err, stderr.String())
	}
	var r Receiver
	if err := json.Unmarshal(line, &r); err != nil {
		t.Fatalf("testreceiver's first line %q: %v", line, err)
	}
	return r
}

// Spans returns what the receiver holds once it holds at least want
// traces (root spans), failing the test after twenty seconds.
func (r Receiver) Spans(t testing.TB, want int) []Span {
	t.Helper()
	var got []Span
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(r.SpansURL)
		if err != nil {
			t.Fatal(err)
		}
		got = nil
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(Roots(got)) >= want {
			return got
		}
	}
	t.Fatalf("the receiver holds %d traces, want %d", len(Roots(got)), want)
	return nil
}

// Roots are the spans without a parent: one a trace.
func Roots(spans []Span) []Span {
	var out []Span
	for _, s := range spans {
		if s.Parent == "" {
			out = append(out, s)
		}
	}
	return out
}

// lockedBuffer is the receiver's standard error, written by its process
// while a failing test may read it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
