package commands

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/schedscope/schedscope/engine/anonymize"
	"github.com/schedscope/schedscope/recorder"
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

// A recording is rewritten to -o FILE, which replay reads; the command
// says how many names it mapped and words it redacted; the marks sidecar
// is written beside FILE, its pod mapped and its note cleaned. A
// recording without -o, a damaged one, and a fixture given as a
// recording are refused in one line each, writing nothing.
func TestAnonymizeRecording(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.rec")
	if _, errOut, code := runCmd(t, NewCmdRecord, "-f", "taints-tolerations", "-o", rec); code != 0 {
		t.Fatalf("record failed: %s", errOut)
	}
	id, err := recorder.RecordingIdentity(rec)
	if err != nil {
		t.Fatal(err)
	}
	r, err := recorder.LoadFile(rec)
	if err != nil || len(r.Cycles) == 0 {
		t.Fatalf("%v, %d cycles", err, len(r.Cycles))
	}
	pod := r.Cycles[0].Pod
	marks := &recorder.Marks{Format: recorder.MarksFormat, Recording: id}
	marks.Set(1, pod.Key(), "paged Zoë about "+pod.Name+" on "+r.Cycles[0].Nodes.Names[0], time.Unix(1e9, 0))
	if err := marks.Save(rec); err != nil {
		t.Fatal(err)
	}

	public := filepath.Join(dir, "public.rec")
	out, errOut, code := runCmd(t, NewCmdAnonymize, rec, "-o", public)
	if code != 0 || out != "" {
		t.Fatalf("anonymize: exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	if !regexp.MustCompile(`^\S+public.rec: [1-9]\d* names mapped to stand-ins, 2 words of free text redacted; 1 marks written to \S+public.rec.marks\n$`).MatchString(errOut) {
		t.Errorf("anonymize said %q", errOut)
	}
	data, err := os.ReadFile(public)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{pod.Name, r.Cycles[0].Nodes.Names[0], "node-gpu"} {
		if strings.Contains(string(data), s) {
			t.Errorf("the anonymized recording holds %q", s)
		}
	}
	if st, err := os.Stat(public); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("output mode %v (%v), want 0600", st.Mode().Perm(), err)
	}
	if out, errOut, code := runCmd(t, NewCmdReplay, public, "--no-tui"); code != 0 || !strings.Contains(out, "cycle 1 ·") {
		t.Errorf("replay of the anonymized recording: exit %d, %s", code, errOut)
	}
	pid, err := recorder.RecordingIdentity(public)
	if err != nil {
		t.Fatal(err)
	}
	got, err := recorder.ReadMarks(public, pid)
	if err != nil || len(got.Marks) != 1 {
		t.Fatalf("the anonymized marks: %v, %+v", err, got)
	}
	note := got.Marks[0].Note
	if strings.Contains(note, "Zo") || strings.Contains(note, pod.Name) || strings.Contains(got.Marks[0].Pod, pod.Name) ||
		!strings.Contains(note, anonymize.Redacted) || !strings.Contains(note, "node-0") {
		t.Errorf("the anonymized mark: pod %q, note %q", got.Marks[0].Pod, note)
	}

	raw, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	lines[2] = lines[2][:20] + "\x01" + lines[2][21:] // the checksum no longer holds
	damaged := filepath.Join(dir, "damaged.rec")
	if err := os.WriteFile(damaged, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{rec}, {damaged, "-o", filepath.Join(dir, "d.rec")}, {"-f", rec}} {
		out, errOut, code := runCmd(t, NewCmdAnonymize, args...)
		if code == 0 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("anonymize %v: exit %d, stdout %q, stderr %q; want one line and a failure", args, code, out, errOut)
		}
	}
	if _, errOut, _ := runCmd(t, NewCmdAnonymize, damaged, "-o", filepath.Join(dir, "d.rec")); !strings.Contains(errOut, "damaged.rec:") || !strings.Contains(errOut, "byte") {
		t.Errorf("the damaged recording's refusal %q does not say where", errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "d.rec")); err == nil {
		t.Error("a refused recording left an output")
	}
	fixture := filepath.Join(dir, "f.yaml")
	if out, _, code := runCmd(t, NewCmdAnonymize, "-f", "taints-tolerations", "-o", fixture); code != 0 || out != "" {
		t.Fatal("anonymize -f failed")
	}
	if _, errOut, code := runCmd(t, NewCmdAnonymize, fixture, "-o", filepath.Join(dir, "x.rec")); code == 0 || !strings.Contains(errOut, "is not a recording") {
		t.Errorf("a fixture given as a recording: exit %d, %q", code, errOut)
	}
}
