package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Tab completes flag values: the formats a command writes, the modes, the
// fixtures, and the pods and nodes of the fixture -f names.
func TestFlagValuesComplete(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "mine.yaml"), "", 0o600)
	if err := os.Mkdir(filepath.Join(dir, "manifests"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"explain", "--diagnostic", ""}, []string{"always", "unschedulable", "never"}},
		{[]string{"explain", "-o", ""}, []string{"text", "json", "yaml", "markdown", "html"}},
		{[]string{"suggest", "-o", ""}, []string{"text", "json", "yaml"}},
		{[]string{"sim", "--arrival", "b"}, []string{"burst"}},
		{[]string{"explain", "-f", "pre"}, []string{"preemption"}},
		{[]string{"explain", "-f", filepath.Join(dir, "m")}, []string{filepath.Join(dir, "manifests") + "/", filepath.Join(dir, "mine.yaml")}},
		{[]string{"explain", "--pod", ""}, []string{"web", "api", "trainer", "huge"}},
		{[]string{"whatif", "-f", "preemption", "--evict", ""}, []string{"default/filler-1", "default/filler-2"}},
		{[]string{"whatif", "-f", "unschedulable", "--patch-node", "co"}, []string{"cordoned="}},
		{[]string{"suggest", "-f", "unschedulable", "--node", "t"}, []string{"tainted", "too-small"}},
		{[]string{"record", "--otlp-protocol", ""}, []string{"grpc", "http/protobuf"}},
		{[]string{"export", "--otlp-protocol", "g"}, []string{"grpc"}},
	} {
		out, _, code := run(t, append([]string{"__complete"}, tt.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d", tt.args, code)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		got := lines[:len(lines)-1] // the last line is the directive
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("%v completes to %q, want %q", tt.args, got, tt.want)
		}
	}
}
