package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine/fixture"
)

// The binary keeps a large fixture admitted under the user's cache
// directory and reads it back for the next question, which answers as the
// first did; SCHEDSCOPE_NO_CACHE=1 writes nothing.
func TestBinaryCachesLargeFixtures(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "kubectl-schedscope")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var b strings.Builder
	for i := range fixture.CacheMinObjects {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Node\nmetadata: {name: node-%05d}\nstatus:\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n---\n", i)
	}
	b.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\nspec:\n  containers: [{name: c, image: nginx, resources: {requests: {cpu: \"5\"}}}]\n")
	path := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	explain := func(env ...string) string {
		t.Helper()
		cmd := exec.Command(bin, "explain", "-f", path, "--pod", "web")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("explain: %v\n%s", err, out)
		}
		return string(out)
	}
	entries := func(cache string) int {
		e, _ := os.ReadDir(filepath.Join(cache, "schedscope", "fixtures"))
		return len(e)
	}
	off := filepath.Join(dir, "off")
	explain("XDG_CACHE_HOME="+off, "SCHEDSCOPE_NO_CACHE=1")
	if n := entries(off); n != 0 {
		t.Errorf("SCHEDSCOPE_NO_CACHE=1 wrote %d cache entries", n)
	}
	on := filepath.Join(dir, "on")
	first := explain("XDG_CACHE_HOME=" + on)
	if n := entries(on); n != 1 {
		t.Fatalf("%d cache entries after the first question, want 1", n)
	}
	second := explain("XDG_CACHE_HOME=" + on)
	want := "0/5000 nodes are available: 5000 Insufficient cpu"
	if !strings.Contains(first, want) || !strings.Contains(second, want) {
		t.Errorf("want %q both times; first:\n%s\nsecond:\n%s", want, first, second)
	}
}
