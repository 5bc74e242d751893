package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

// recordedHeader records fixture (a path or an embedded name) with args
// to path and returns the recording's header.
func recordedHeader(t *testing.T, path, fixture string, args ...string) (string, recorder.Header) {
	t.Helper()
	if _, errOut, code := run(t, append([]string{"record", "-f", fixture, "-o", path}, args...)...); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	rec, err := recorder.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, rec.Header
}

// TestReplayQuestionsTheRecordedFixture: a recording names its fixture,
// configuration and arrival with their digests; replay's what-if runs that
// fixture again, and the cycle it forks at is the recorded one. A fixture
// changed since, missing, read from standard input, or named by a
// recording made before digests is refused with why.
func TestReplayQuestionsTheRecordedFixture(t *testing.T) {
	dir := t.TempDir()
	data, err := fixtures.Read("unschedulable.yaml")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "f.yaml"), string(data), 0o600)
	writeFile(t, filepath.Join(dir, "c.yaml"), mostAllocatedConfig, 0o600)
	t.Chdir(dir)
	recPath, h := recordedHeader(t, "run.rec", "f.yaml", "--config", "c.yaml", "--arrival", "burst")
	if h.Source.Digest == "" || h.Source.ConfigDigest == "" || h.Source.Arrival != arrivalBurst {
		t.Fatalf("the header's source %+v lacks the digests or the arrival", h.Source)
	}

	o, why := replayWhatIf(h, recPath)
	if o == nil {
		t.Fatalf("replay of an unchanged fixture: no what-if: %s", why)
	}
	if o.Fixture != "f.yaml" || o.Config != "c.yaml" || o.Arrival != arrivalBurst {
		t.Errorf("what-if options %+v; want f.yaml, c.yaml, burst", o)
	}
	rec, err := recorder.LoadFile(recPath)
	if err != nil {
		t.Fatal(err)
	}
	f, err := o.fork(context.Background(), scenario.At{Cycle: rec.Cycles[0].Seq})
	if err != nil {
		t.Fatal(err)
	}
	if d := recorder.DiffCycles(rec.Cycles[0], f.Cycle()); !d.Same {
		t.Errorf("the re-run's cycle %d differs from the recorded one: %+v", rec.Cycles[0].Seq, d)
	}

	// Replayed from elsewhere, the files are found beside the recording.
	t.Chdir(t.TempDir())
	if o, why := replayWhatIf(h, filepath.Join(dir, recPath)); o == nil || o.Fixture != filepath.Join(dir, "f.yaml") || o.Config != filepath.Join(dir, "c.yaml") {
		t.Errorf("replayed from another directory: %+v, %q; want the files beside the recording", o, why)
	}
	t.Chdir(dir)

	for _, tt := range []struct {
		name   string
		change func(h *recorder.Header)
		files  func()
		want   string
	}{
		{"the fixture changed", nil, func() { writeFile(t, "f.yaml", string(data)+"# edited\n", 0o600) }, `f.yaml has changed since the recording was made`},
		{"the configuration changed", nil, func() { writeFile(t, "c.yaml", mostAllocatedConfig+"# edited\n", 0o600) }, `c.yaml has changed since the recording was made`},
		{"the fixture is gone", nil, func() { os.Remove("f.yaml") }, `f.yaml is not found`},
		{"standard input", func(h *recorder.Header) { h.Source.Name = "(stdin)" }, nil, "read from standard input"},
		{"no digest", func(h *recorder.Header) { h.Source.Digest = "" }, nil, "cannot tell whether"},
		{"a cluster", func(h *recorder.Header) { h.Source.Kind = "cluster" }, nil, "run kubectl schedscope live"},
		{"anonymized", func(h *recorder.Header) { h.Anonymized = true }, nil, "this recording is anonymized"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			writeFile(t, "f.yaml", string(data), 0o600)
			writeFile(t, "c.yaml", mostAllocatedConfig, 0o600)
			hh := h
			if tt.change != nil {
				tt.change(&hh)
			}
			if tt.files != nil {
				tt.files()
			}
			if o, why := replayWhatIf(hh, recPath); o != nil || !strings.Contains(why, tt.want) {
				t.Errorf("what-if %v, why %q; want none, saying %q", o, why, tt.want)
			}
		})
	}

	// A directory given as the fixture: the digest is of its manifests.
	fxDir := filepath.Join(dir, "manifests")
	if err := os.Mkdir(fxDir, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(fxDir, "a.yaml"), string(data), 0o600)
	recPath, h = recordedHeader(t, filepath.Join(t.TempDir(), "run.rec"), fxDir)
	if o, why := replayWhatIf(h, recPath); o == nil || o.Fixture != fxDir {
		t.Errorf("replay of a directory's run: %v, %q; want the directory", o, why)
	}
	writeFile(t, filepath.Join(fxDir, "b.yaml"), "apiVersion: v1\nkind: Namespace\nmetadata: {name: more}\n", 0o600)
	if o, why := replayWhatIf(h, recPath); o != nil || !strings.Contains(why, "has changed since") {
		t.Errorf("a manifest added to the directory: %v, %q; want it refused as changed", o, why)
	}

	// An embedded fixture is read from the build.
	recPath, h = recordedHeader(t, filepath.Join(t.TempDir(), "run.rec"), "preemption")
	if o, why := replayWhatIf(h, recPath); o == nil || o.Fixture != "preemption" {
		t.Errorf("replay of an embedded fixture: %v, %q; want preemption", o, why)
	}
}
