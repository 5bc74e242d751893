package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnonymizeCommand writes an embedded fixture anonymized, to standard
// output and to a file (the same bytes, mode 0600), and refuses a missing
// -f and an output that is the fixture, in one line each.
func TestAnonymizeCommand(t *testing.T) {
	out, errOut, code := runCmd(t, NewCmdAnonymize, "-f", "taints-tolerations")
	if code != 0 {
		t.Fatalf("anonymize failed: %s", errOut)
	}
	if !strings.Contains(out, "name: node-001") || strings.Contains(out, "node-gpu") {
		t.Errorf("not anonymized:\n%s", out)
	}
	file := filepath.Join(t.TempDir(), "public.yaml")
	if _, errOut, code := runCmd(t, NewCmdAnonymize, "-f", "taints-tolerations", "-o", file); code != 0 {
		t.Fatalf("anonymize -o failed: %s", errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil || string(data) != out {
		t.Errorf("-o wrote other bytes than standard output (%v)", err)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("-o file mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
	for _, args := range [][]string{{}, {"-f", file, "-o", file}} {
		_, errOut, code := runCmd(t, NewCmdAnonymize, args...)
		if code == 0 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("anonymize %v: exit %d, stderr %q; want one line and a failure", args, code, errOut)
		}
	}
}

// A recording is refused in one line that says why (its messages are free
// text) and gives the command that anonymizes the fixture it names and
// records that instead; nothing is written.
func TestAnonymizeRefusesARecording(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.rec")
	if _, errOut, code := runCmd(t, NewCmdRecord, "-f", "taints-tolerations", "-o", rec); code != 0 {
		t.Fatalf("record failed: %s", errOut)
	}
	out, errOut, code := runCmd(t, NewCmdAnonymize, "-f", rec)
	if code == 0 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
		t.Fatalf("anonymize of a recording: exit %d, %d bytes out, stderr %q; want one line and a failure", code, len(out), errOut)
	}
	for _, want := range []string{"is a recording", "free text", "anonymize -f", "-f taints-tolerations -o public.yaml", "record -f public.yaml"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not say %q", errOut, want)
		}
	}
}
