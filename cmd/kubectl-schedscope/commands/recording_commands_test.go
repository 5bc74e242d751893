package commands

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
)

// record writes a recording of an embedded fixture and returns its path.
func record(t *testing.T, fixture string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), fixture+".rec")
	if _, errOut, code := run(t, "record", "-f", fixture, "-o", path); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errOut)
	}
	return path
}

func writeFile(t *testing.T, path, data string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

func checkOneLine(t *testing.T, errOut, want string) {
	t.Helper()
	if !strings.Contains(errOut, want) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("stderr %q, want one line containing %q", errOut, want)
	}
}

func TestRecordLeavesOutputIntactOnBadInput(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.rec")
	fixture := filepath.Join(dir, "x.yaml")
	config := filepath.Join(dir, "sched.yaml")
	const keepData = "an earlier recording\n"
	fixtureData, err := os.ReadFile("../../../fixtures/preemption.yaml")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, fixture, string(fixtureData), 0o644)
	writeFile(t, config, "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n", 0o644)
	tests := []struct {
		name  string
		args  []string
		check string // the file that must be left as it was
		want  string
	}{
		{"missing fixture", []string{"record", "-f", filepath.Join(dir, "nonexistent.yaml"), "-o", keep}, keep, "nonexistent.yaml: no such file"},
		{"missing config", []string{"record", "-f", fixture, "--config", filepath.Join(dir, "nope.yaml"), "-o", keep}, keep, "nope.yaml"},
		{"bad diagnostic", []string{"record", "-f", fixture, "--diagnostic", "sometimes", "-o", keep}, keep, "--diagnostic must be"},
		{"output is the fixture", []string{"record", "-f", fixture, "-o", fixture}, fixture, "refusing to write " + fixture + ": it is the input"},
		{"output is the fixture by another name", []string{"record", "-f", fixture, "-o", dir + "/./x.yaml"}, fixture, "it is the input"},
		{"output is the config", []string{"record", "-f", fixture, "--config", config, "-o", config}, config, "it is the input " + config},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeFile(t, keep, keepData, 0o644)
			before, err := os.ReadFile(tt.check)
			if err != nil {
				t.Fatal(err)
			}
			_, errOut, code := run(t, tt.args...)
			if code == 0 {
				t.Fatal("exit 0")
			}
			checkOneLine(t, errOut, tt.want)
			after, err := os.ReadFile(tt.check)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Errorf("%s changed: %d bytes before, %d after", tt.check, len(before), len(after))
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 3 {
				t.Errorf("directory holds %d files, want the 3 inputs (no temporary file left)", len(entries))
			}
		})
	}
}

func TestRecordIsPrivateAndReplacesOutput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.rec")
	writeFile(t, path, "old", 0o644)
	if _, errOut, code := run(t, "record", "-f", "preemption", "-o", path); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	rec, err := recorder.LoadFile(path)
	if err != nil || len(rec.Cycles) != 2 {
		t.Fatalf("LoadFile: %v", err)
	}
}

func TestReplayRefusesWhatIsNotARecording(t *testing.T) {
	dir := t.TempDir()
	fixture := filepath.Join(dir, "x.yaml")
	writeFile(t, fixture, "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n", 0o644)
	rec := record(t, "preemption")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"/dev/zero", []string{"replay", "/dev/zero", "--no-tui"}, `/dev/zero: not a schedscope recording: it starts with "\x00\x00`},
		{"/dev/zero in the TUI", []string{"replay", "/dev/zero", "--follow=false"}, `/dev/zero: not a schedscope recording`},
		{"fixture", []string{"replay", fixture, "--no-tui", "-o", "json"}, `x.yaml: not a schedscope recording: it starts with "apiVersion: v1"`},
		{"missing", []string{"replay", filepath.Join(dir, "nope.rec"), "--no-tui"}, "nope.rec: no such file"},
		{"no terminal", []string{"replay", rec}, "needs a terminal; to print " + rec + " instead, run: kubectl schedscope replay " + rec + " --no-tui"},
		{"output without --no-tui", []string{"replay", rec, "-o", "json"}, "--output and --pod are for printing the recording: add --no-tui"},
		{"follow with --no-tui", []string{"replay", rec, "--no-tui", "--follow"}, "--follow cannot be used with --no-tui"},
		{"bad output", []string{"replay", rec, "--no-tui", "-o", "xml"}, `--output must be text, json or yaml, not "xml"`},
		{"unknown pod", []string{"replay", rec, "--no-tui", "--pod", "ghost"}, `no cycle for pod "ghost" in ` + rec + "; its pods are default/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code == 0 {
				t.Fatal("exit 0")
			}
			checkOneLine(t, errOut, tt.want)
		})
	}
}

func TestReplayNoTUIPrintsLikeExplain(t *testing.T) {
	rec := record(t, "preemption")
	text, errOut, code := run(t, "replay", rec, "--no-tui")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	explained, _, _ := run(t, "explain", "-f", "preemption")
	// The same walk through the cycles, after a header naming the source.
	// The two runs of the engine may differ in timings and in what a
	// preemption's victims had become, so only the headline of each cycle,
	// its result and its phases are compared.
	durations := regexp.MustCompile(`[0-9.]+(ns|µs|ms|s)\b`)
	outline := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "cycle ") || strings.HasPrefix(l, "result: ") || regexp.MustCompile(`^[1-6]\. `).MatchString(l) {
				out = append(out, durations.ReplaceAllString(l, "DURATION"))
			}
		}
		return out
	}
	if diff := cmp.Diff(outline(explained), outline(text)); diff != "" || len(outline(text)) < 6 {
		t.Errorf("replay --no-tui and explain differ (-explain +replay):\n%s", diff)
	}
	if !strings.Contains(text, "recording "+rec+" (fixture (embedded) preemption)") {
		t.Errorf("header line: %q", text[:strings.Index(text, "\n")])
	}

	out, errOut, code := run(t, "replay", rec, "--no-tui", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	checkExport(t, out, 2)
}

func TestReplayNoTUIReportsProblems(t *testing.T) {
	rec := record(t, "preemption")
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, rec, string(data[:len(data)-5]), 0o600) // tear the last cycle
	out, errOut, code := run(t, "replay", rec, "--no-tui", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := checkExport(t, out, 1)
	if len(doc.Problems) != 1 || !strings.Contains(doc.Problems[0], "torn record") {
		t.Errorf("problems %q, want the torn record", doc.Problems)
	}
	checkOneLine(t, errOut, "has 1 problem(s), listed under .problems; run: kubectl schedscope verify")
}

// checkExport checks an exported document against the JSON Schema and
// returns it.
func checkExport(t *testing.T, out string, cycles int) recorder.ExportDocument {
	t.Helper()
	var generic any
	if err := json.Unmarshal([]byte(out), &generic); err != nil {
		t.Fatal(err)
	}
	s := loadSchema(t)
	if errs := s.validate(generic, s.root, "$"); len(errs) > 0 {
		t.Errorf("output does not match recorder/schema/explain.schema.json:\n%s", strings.Join(errs, "\n"))
	}
	if bad := compactKeys(generic, "$"); len(bad) > 0 {
		t.Errorf("keys of the compact recording encoding in the export: %v", bad)
	}
	var doc recorder.ExportDocument
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != recorder.ExportFormat || doc.SchemaVersion != 1 || len(doc.Cycles) != cycles {
		t.Errorf("format %q version %d with %d cycles, want %q 1 with %d", doc.Format, doc.SchemaVersion, len(doc.Cycles), recorder.ExportFormat, cycles)
	}
	return doc
}

func TestExplainJSONMatchesSchema(t *testing.T) {
	out, errOut, code := run(t, "explain", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := checkExport(t, out, 4)
	if doc.Header.KubernetesVersion != "v1.37.1" || len(doc.Header.Profiles) != 1 {
		t.Errorf("header %+v", doc.Header)
	}
	web := doc.Cycles[0]
	if web.Pod.Name != "web" || web.Score == nil || web.Score.Nodes[0].Node == "" || !strings.HasPrefix(web.Score.Nodes[0].Node, "node-") {
		t.Errorf("first cycle %+v: want web's scores by node name", web)
	}
	for _, want := range []string{`"feasible": [`, `"node": "node-a"`, `"duration": "`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s", want)
		}
	}
}

func TestExplainExitCodeAndUnknownPod(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"every pod bound", []string{"explain", "-f", "preemption", "--exit-code"}, 0, ""},
		{"a pod ends unschedulable", []string{"explain", "-f", "unschedulable", "--exit-code"}, 1, "pod(s) ended without a node: default/"},
		{"only the named pod counts", []string{"explain", "--pod", "web", "--exit-code"}, 0, ""},
		{"without --exit-code", []string{"explain", "-f", "unschedulable"}, 0, ""},
		{"unknown pod", []string{"explain", "--pod", "nosuch"}, 1, `no cycle for pod "nosuch" in (embedded) default.yaml; its pods are default/web, default/api`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d: %s", code, tt.wantCode, errOut)
			}
			if tt.want != "" {
				checkOneLine(t, errOut, tt.want)
			}
		})
	}
}

func TestListSome(t *testing.T) {
	var many []string
	for i := 1; i <= 23; i++ {
		many = append(many, fmt.Sprintf("p%d", i))
	}
	tests := []struct {
		name  string
		items []string
		want  string
	}{
		{"few", []string{"a", "b"}, "a, b"},
		{"many", many, strings.Join(many[:20], ", ") + " and 3 more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := listSome(tt.items, 20); got != tt.want {
				t.Errorf("listSome = %q, want %q", got, tt.want)
			}
		})
	}
}

// runCmd runs a command built on its own as Execute runs the root command,
// returning stdout, stderr and the exit code.
func runCmd(t *testing.T, newCmd func(genericiooptions.IOStreams) *cobra.Command, args ...string) (string, string, int) {
	t.Helper()
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	cmd := newCmd(streams)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetArgs(args)
	if err := cmd.Execute(); err != nil {
		fmt.Fprintln(errOut, "error: "+strings.Join(strings.Fields(err.Error()), " "))
		return out.String(), errOut.String(), 1
	}
	return out.String(), errOut.String(), 0
}

func TestVerify(t *testing.T) {
	clean := record(t, "preemption")
	data, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	// Lines: header, node set, cycle 1, cycle 2. Damage the node set and tear cycle 2.
	damaged := filepath.Join(t.TempDir(), "damaged.rec")
	lines[1][30] ^= 1
	writeFile(t, damaged, string(bytes.Join(lines, nil)[:len(data)-5]), 0o600)
	setAt, cycle1At, cycle2At := len(lines[0]), len(lines[0])+len(lines[1]), len(lines[0])+len(lines[1])+len(lines[2])

	tests := []struct {
		name     string
		file     string
		wantCode int
		wantOut  []string
		wantErr  string
	}{
		{"clean", clean, 0, []string{"4 records: 2 cycles, 1 node sets, 0 observed bindings", "no problems"}, ""},
		{"damaged", damaged, 1, []string{
			"2 records: 1 cycles, 0 node sets, 0 observed bindings",
			"3 problem(s):",
			fmt.Sprintf("  corrupt record at byte %d (line 2): checksum mismatch", setAt),
			fmt.Sprintf("  cycle 1 (record at byte %d) refers to node set 1, which could not be read (its record at byte %d is damaged: checksum mismatch); its node names are unknown", cycle1At, setAt),
			fmt.Sprintf("  recording ends with a torn record at byte %d (kept everything before it)", cycle2At),
		}, "damaged.rec: 3 problem(s) found"},
		{"missing", filepath.Join(t.TempDir(), "nope.rec"), 1, nil, "nope.rec: no such file or directory"},
		{"directory", t.TempDir(), 1, nil, "is a directory, not a recording"},
		{"not a recording", "/dev/zero", 1, nil, "/dev/zero: not a schedscope recording"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCmd(t, NewCmdVerify, tt.file)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.wantCode, errOut)
			}
			for _, want := range tt.wantOut {
				if !strings.Contains(out, want+"\n") {
					t.Errorf("stdout lacks line %q:\n%s", want, out)
				}
			}
			if tt.wantErr == "" {
				if errOut != "" {
					t.Errorf("stderr %q, want nothing", errOut)
				}
				return
			}
			checkOneLine(t, errOut, tt.wantErr)
		})
	}
}
