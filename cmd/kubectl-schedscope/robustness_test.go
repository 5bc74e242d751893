package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// builtBinary is the command built once for the tests that run it as a
// user does.
var builtBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "schedscope-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "kubectl-schedscope")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &buildError{err: err, out: string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// maxInputRSS bounds the memory a command may use to refuse a bad input.
const maxInputRSS = 300 << 20

// TestMalformedChangeInputsFailInOneBoundedLine hands whatif the inputs an
// outside reliability pass broke it with — patches from /dev/zero and
// /dev/urandom, a 60 MB and a 3 MB label patch, deeply nested patches, and
// manifests and configurations from devices — and checks that each ends in
// exit 1 with one short line on stderr, in bounded memory.
func TestMalformedChangeInputsFailInOneBoundedLine(t *testing.T) {
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// Each input is written in pieces: a child's peak RSS as Linux reports
	// it includes this process's peak at the fork, which must stay small.
	write := func(name string, parts ...string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for i := 0; i < len(parts); i += 2 {
			for range atoi(t, parts[i+1]) {
				if _, err := f.WriteString(parts[i]); err != nil {
					t.Fatal(err)
				}
			}
		}
		return p
	}
	label := func(name string, mib int) string {
		return write(name, `{"metadata":{"labels":{"x":"`, "1", strings.Repeat("a", 1<<20), strconv.Itoa(mib), `"}}}`, "1")
	}
	tests := []struct {
		name string
		args []string
		want string // in the error line
	}{
		{"a pod patch from /dev/zero", []string{"--patch-pod", "@/dev/zero"}, "--patch-pod: /dev/zero: larger than 4 MiB: too big for a patch"},
		{"a pod patch from /dev/urandom", []string{"--patch-pod", "@/dev/urandom"}, "--patch-pod: /dev/urandom: larger than 4 MiB"},
		{"a node patch from /dev/zero", []string{"--patch-node", "node-a=@/dev/zero"}, "--patch-node: /dev/zero: larger than 4 MiB"},
		{"a 60 MB label patch", []string{"--patch-pod", "@" + label("p60.json", 60)}, "p60.json: larger than 4 MiB"},
		{"a 3 MB label patch, under the bound", []string{"--patch-pod", "@" + label("p3.json", 3)}, "bytes)"},
		{"a deeply nested list", []string{"--patch-pod", "@" + write("nest.json", `{"metadata":{"labels":`, "1", "[", "1000000", "]", "1000000", "}}", "1")}, "exceeded max depth"},
		{"a deeply nested object", []string{"--patch-pod", "@" + write("nesto.json", `{"spec":`, "1", `{"a":`, "300000", "1", "1", "}", "300001")}, "exceeded max depth"},
		{"a pod manifest from /dev/zero", []string{"--pod-file", "/dev/zero"}, "--pod-file: /dev/zero: larger than 4 MiB: too big for a manifest"},
		{"a node manifest from /dev/urandom", []string{"--add-node", "/dev/urandom"}, "--add-node: /dev/urandom: larger than 4 MiB"},
		{"a configuration from /dev/zero", []string{"--with-config", "/dev/zero"}, "too big for a scheduler configuration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"whatif", "--pod", "web"}, tt.args...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Fatalf("exit: %v, want exit status 1; stderr: %.300s", err, stderr.String())
			}
			line := strings.TrimSuffix(stderr.String(), "\n")
			if strings.Contains(line, "\n") || !strings.HasPrefix(line, "error: ") || len(line) > 4300 {
				t.Errorf("stderr is not one short error line (%d bytes): %.300q", stderr.Len(), stderr.String())
			}
			if !strings.Contains(line, tt.want) {
				t.Errorf("error %.300q does not say %q", line, tt.want)
			}
			if rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10; rss > maxInputRSS {
				t.Errorf("peak RSS %d MB refusing the input, want at most %d MB", rss>>20, maxInputRSS>>20)
			}
		})
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestUnreachableExtenderLeavesStderrClean runs explain with a scheduler
// extender nobody listens for: each cycle says the extender's error, and
// upstream's own log lines about it (klog's E1125 … lines) stay off the
// terminal.
func TestUnreachableExtenderLeavesStderrClean(t *testing.T) {
	bin, err := builtBinary()
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(t.TempDir(), "extender.yaml")
	if err := os.WriteFile(config, []byte(`apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
extenders:
- urlPrefix: http://127.0.0.1:1/extender
  filterVerb: filter
  weight: 1
`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "explain", "--config", config)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("explain: %v; stderr: %s", err, stderr.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr holds %d bytes, want none:\n%s", stderr.Len(), stderr.String())
	}
	if want := `result: Error: Post "http://127.0.0.1:1/extender/filter"`; !strings.Contains(stdout.String(), want) {
		t.Errorf("explain does not say %q:\n%s", want, stdout.String())
	}
}
