package engine

import (
	"errors"
	"io"
	"os"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/klog/v2"
)

// TestUpstreamLogsAreProblemsNotTerminalLines logs through klog as
// upstream code does: an error becomes a problem of the runs listening,
// the cycle errors the cycle records are not told twice, info is dropped,
// and nothing reaches standard error.
func TestUpstreamLogsAreProblemsNotTerminalLines(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = stderr }()

	var mu sync.Mutex
	var got []string
	stop := RouteUpstreamLogs(func(err error) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, err.Error())
	})
	klog.ErrorS(errors.New("dial tcp: refused"), "Error selecting node for pod", "pod", klog.KRef("default", "web"))
	klog.ErrorS(errors.New("dial tcp: refused"), "Error scheduling pod; retrying", "pod", klog.KRef("default", "web"))
	klog.ErrorS(errors.New("the cache is stale"), "Failed to sync", "informer", "nodes")
	klog.Background().WithValues("logger", "UnhandledError").Error(errors.New("watch closed"), "Unhandled Error")
	klog.InfoS("Starting scheduler")
	klog.Error("a line in the old style")
	stop()
	klog.ErrorS(errors.New("after"), "Told to nobody")
	klog.Flush()

	want := []string{
		"logged by upstream code: Failed to sync: the cache is stale (informer=nodes)",
		"logged by upstream code: Unhandled Error: watch closed (logger=UnhandledError)",
		"logged by upstream code: a line in the old style",
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	w.Close()
	os.Stderr = stderr
	if out, _ := io.ReadAll(r); len(out) != 0 {
		t.Errorf("standard error got %q, want nothing", out)
	}
}
