package app

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The main.go README shows, built in a module of its own against this one
// with the example plugin's package, is a schedscope whose explain runs and
// records the plugin.
func TestREADMEMainBuildsWithAPlugin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a whole schedscope")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- your-plugins-main:[^\n]*\n```go\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README has no main.go under <!-- your-plugins-main -->")
	}
	dir := t.TempDir()
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.go", m[1])
	// The plugin's package, as its own module would have it: its Go files
	// (it imports nothing of schedscope's).
	plugin := filepath.Join(root, "engine", "internal", "zonebudget")
	files, _ := filepath.Glob(filepath.Join(plugin, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte("github.com/schedscope/")) {
			t.Fatalf("%s imports schedscope: an out-of-tree plugin would not", f)
		}
		write(filepath.Join("zonebudget", filepath.Base(f)), data)
	}
	// go.mod: schedscope's requirements and replace block (README says to
	// copy that block), and schedscope itself from this tree.
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mod = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(mod, []byte("module example.com/scheduler"))
	mod = append(mod, []byte("\nrequire github.com/schedscope/schedscope v0.0.0\n\nreplace github.com/schedscope/schedscope => "+root+"\n")...)
	write("go.mod", mod)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	write("go.sum", sum)

	bin := filepath.Join(dir, "kubectl-schedscope")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "SCHEDSCOPE_NO_CACHE=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	if out := run("version"); !strings.Contains(out, "out-of-tree plugins: ZoneBudget") {
		t.Errorf("version does not list ZoneBudget:\n%s", out)
	}
	data := filepath.Join(plugin, "testdata")
	out := run("explain", "-f", filepath.Join(data, "fixture.yaml"), "--config", filepath.Join(data, "config.yaml"), "--pod", "web-1")
	for _, want := range []string{"ZB=ZoneBudget", "b1                             ZoneBudget: Unschedulable: zone zone-b is over budget", "Permit     ZoneBudget Wait: held for 300ms"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain does not say %q:\n%s", want, out)
		}
	}
	t.Logf("explain --pod web-1 of the built schedscope:\n%s", out)
}
