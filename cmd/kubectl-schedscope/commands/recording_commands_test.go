package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/schema"
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
		{"/dev/zero in the TUI", []string{"replay", "/dev/zero", "--follow=false"}, "needs a terminal; to print /dev/zero instead"},
		{"fixture", []string{"replay", fixture, "--no-tui", "-o", "json"}, `x.yaml: not a schedscope recording: it starts with "apiVersion: v1"`},
		{"missing", []string{"replay", filepath.Join(dir, "nope.rec"), "--no-tui"}, "nope.rec: no such file"},
		{"no terminal", []string{"replay", rec}, "needs a terminal; to print " + rec + " instead, run: kubectl schedscope replay " + rec + " --no-tui"},
		{"output without --no-tui", []string{"replay", rec, "-o", "json"}, "--output and --pod are for printing the recording: add --no-tui"},
		{"follow with --no-tui", []string{"replay", rec, "--no-tui", "--follow"}, "--follow cannot be used with --no-tui"},
		{"bad output", []string{"replay", rec, "--no-tui", "-o", "xml"}, `--output must be text, json, yaml, markdown or html, not "xml"`},
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
	lines := bytes.SplitAfter(data, []byte("\n"))
	end := len(bytes.Join(lines[:lineOfKind(t, lines, "cycle", 1)+1], nil))
	writeFile(t, rec, string(data[:end-5]), 0o600) // tear the last cycle
	out, errOut, code := run(t, "replay", rec, "--no-tui", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	doc := checkExport(t, out, 1)
	if len(doc.Problems) != 1 || !strings.Contains(doc.Problems[0], "torn record") {
		t.Errorf("problems %q, want the torn record", doc.Problems)
	}
	checkOneLine(t, errOut, "has 1 problem, listed under .problems; run: kubectl schedscope verify")
}

// checkExport checks an exported document against the JSON Schema and
// returns it; it must hold the given number of cycles, unless that is -1.
func checkExport(t *testing.T, out string, cycles int) export.Document {
	t.Helper()
	var generic any
	if err := json.Unmarshal([]byte(out), &generic); err != nil {
		t.Fatal(err)
	}
	errs, err := schema.Check(generic)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) > 0 {
		t.Errorf("output does not match recorder/schema/explain.schema.json:\n%s", strings.Join(errs, "\n"))
	}
	if bad := schema.CompactKeys(generic, "$"); len(bad) > 0 {
		t.Errorf("keys of the compact recording encoding in the export: %v", bad)
	}
	var doc export.Document
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != export.Format || doc.SchemaVersion != 1 || cycles >= 0 && len(doc.Cycles) != cycles {
		t.Errorf("format %q version %d with %d cycles, want %q 1 with %d", doc.Format, doc.SchemaVersion, len(doc.Cycles), export.Format, cycles)
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
	// The files made from it are cut short, or have records added: without
	// the writer's end record.
	end := lineOfKind(t, lines, "end", 0)
	lines = slices.Delete(lines, end, end+1)
	// Damage the node set and tear the second cycle, cutting the file there.
	damaged := filepath.Join(t.TempDir(), "damaged.rec")
	set, cycle1, cycle2 := lineOfKind(t, lines, "nodeSet", 0), lineOfKind(t, lines, "cycle", 0), lineOfKind(t, lines, "cycle", 1)
	at := func(i int) int { return len(bytes.Join(lines[:i], nil)) }
	queue, queueBefore := 0, 0
	for i, l := range lines {
		if bytes.Contains(l, []byte(`{"kind":"queue"`)) {
			queue++
			if i < cycle2 {
				queueBefore++
			}
		}
	}
	// Swap the first two queue events, and repeat the first cycle and the
	// last queue event at the end: each is a problem; the events swapped
	// are kept, the copies skipped.
	reordered := filepath.Join(t.TempDir(), "reordered.rec")
	q1, q2, qLast := lineOfKind(t, lines, "queue", 0), lineOfKind(t, lines, "queue", 1), lineOfKind(t, lines, "queue", queue-1)
	swapped := slices.Clone(lines)
	swapped[q1], swapped[q2] = lines[q2], lines[q1]
	swapped = append(swapped[:len(swapped)-1], lines[cycle1], lines[qLast])
	writeFile(t, reordered, string(bytes.Join(swapped, nil)), 0o600)
	swappedAt := func(i int) int { return len(bytes.Join(swapped[:i], nil)) }

	lines[set][30] ^= 1
	writeFile(t, damaged, string(bytes.Join(lines, nil)[:at(cycle2+1)-5]), 0o600)

	tests := []struct {
		name     string
		file     string
		wantCode int
		wantOut  []string
		wantErr  string
	}{
		{"clean", clean, 0, []string{fmt.Sprintf("%d records: 2 cycles, 1 node set, %d queue events, 0 observed bindings", 5+queue, queue), "ended by its writer", "no problems"}, ""},
		{"damaged", damaged, 1, []string{
			fmt.Sprintf("%d records: 1 cycle, 0 node sets, %d queue events, 0 observed bindings", 2+queueBefore, queueBefore),
			"3 problems:",
			fmt.Sprintf("  corrupt record at byte %d (line %d): checksum mismatch", at(set), set+1),
			fmt.Sprintf("  cycle 1 (record at byte %d) refers to node set 1, which could not be read (its record at byte %d is damaged: checksum mismatch); its node names are unknown", at(cycle1), at(set)),
			fmt.Sprintf("  recording ends with a torn record at byte %d (kept everything before it)", at(cycle2)),
		}, "damaged.rec: 3 problems found"},
		{"reordered", reordered, 1, []string{
			fmt.Sprintf("%d records: 2 cycles (1 duplicate), 1 node set, %d queue events (1 duplicate, 1 out of order), 0 observed bindings", 4+queue+2, queue),
			"3 problems:",
			fmt.Sprintf("  queue event %d at byte %d is out of order: it comes after queue event %d (at byte %d); it was moved, not copied, and is kept", seqOf(t, lines[q1]), swappedAt(q2), seqOf(t, lines[q2]), swappedAt(q1)),
			fmt.Sprintf("  cycle %d appears again at byte %d (first at byte %d)", seqOf(t, lines[cycle1]), swappedAt(len(swapped)-2), swappedAt(cycle1)),
			fmt.Sprintf("  queue event %d appears again at byte %d (first at byte %d)", seqOf(t, lines[qLast]), swappedAt(len(swapped)-1), swappedAt(qLast)),
		}, "reordered.rec: 3 problems found"},
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

func TestExportOfEveryFixtureMatchesSchema(t *testing.T) {
	for _, name := range fixtures.Names() {
		name := strings.TrimSuffix(name, filepath.Ext(name))
		t.Run(name, func(t *testing.T) {
			out, errOut, code := run(t, "explain", "-f", name, "-o", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			checkExport(t, out, -1)
		})
	}
}

func TestExportListsAreArrays(t *testing.T) {
	// Every phase present and every list in it empty, and a header that
	// could not be read: the export still matches the schema, with [] for
	// each list it writes and no creation time it does not know.
	c := &recorder.Cycle{
		Seq: 1, PreFilter: &recorder.PreFilterPhase{}, Filter: &recorder.FilterPhase{}, Diagnostic: &recorder.DiagnosticFilter{},
		PostFilter: &recorder.PostFilterPhase{}, Score: &recorder.ScorePhase{Plugins: []recorder.ScorePlugin{{}}, Nodes: []int{0}, Totals: []int64{0}}, Selection: &recorder.Selection{Rule: recorder.RuleHighestScore},
		Outcome: recorder.Outcome{Result: recorder.ResultBound},
	}
	c.Score.Plugins[0].Raw = []int64{0}
	h := recorder.Header{Profiles: []recorder.Profile{{SchedulerName: "x"}, {ExtensionPoints: []recorder.ExtensionPoint{{Name: "Score"}}}}}
	for _, header := range []recorder.Header{{Unreadable: true}, h} {
		data, err := json.Marshal(export.NewDocument(header, []*recorder.Cycle{c}, nil))
		if err != nil {
			t.Fatal(err)
		}
		checkExport(t, string(data), 1)
		if strings.Contains(string(data), "null") {
			t.Errorf("export holds null: %s", data)
		}
		if header.Unreadable && strings.Contains(string(data), `"created"`) {
			t.Errorf("unreadable header exported with a creation time: %s", data)
		}
	}
}

func TestVerifyCountsDuplicatesAndUnknownKinds(t *testing.T) {
	clean := record(t, "preemption")
	data, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	dir := t.TempDir()
	// A record appended after the writer's end record.
	afterEnd := filepath.Join(dir, "after-end.rec")
	size := len(data)
	writeFile(t, afterEnd, string(data)+checksumLine(`{"kind":"observed","observed":{"pod":{"namespace":"default","name":"x"},"node":"n"}}`), 0o600)
	end := lineOfKind(t, lines, "end", 0)
	lines = slices.Delete(lines, end, end+1)
	data = bytes.Join(lines, nil)
	unknown := filepath.Join(dir, "unknown.rec")
	writeFile(t, unknown, string(data)+checksumLine(`{"kind":"bogus","bogus":{"x":1}}`), 0o600)
	dup := filepath.Join(dir, "dup.rec")
	cycle1 := lineOfKind(t, lines, "cycle", 0)
	writeFile(t, dup, string(data)+string(lines[cycle1]), 0o600)
	records := len(lines) - 1
	queue := records - 4

	tests := []struct {
		name     string
		file     string
		wantCode int
		wantOut  []string
	}{
		{"unknown kind", unknown, 0, []string{
			fmt.Sprintf("%d records: 2 cycles, 1 node set, %d queue events, 0 observed bindings", records+1, queue),
			"no end record: its writer stopped before closing it, or is still writing it",
			`skipped 1 record of unknown kind "bogus" (written by a newer schedscope?)`,
			"no problems",
		}},
		{"a record after the end", afterEnd, 1, []string{
			"no end record: its writer stopped before closing it, or is still writing it",
			"1 problem:",
			fmt.Sprintf("  the observed record at byte %d comes after the recording's end record", size),
		}},
		{"duplicate cycle", dup, 1, []string{
			fmt.Sprintf("%d records: 2 cycles (1 duplicate), 1 node set, %d queue events, 0 observed bindings", records+1, queue),
			"1 problem:",
			fmt.Sprintf("  cycle 1 appears again at byte %d (first at byte %d)", len(data), len(bytes.Join(lines[:cycle1], nil))),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, "verify", tt.file)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.wantCode, errOut)
			}
			for _, want := range tt.wantOut {
				if !strings.Contains(out, want+"\n") {
					t.Errorf("stdout lacks line %q:\n%s", want, out)
				}
			}
		})
	}

	// replay prints the duplicated cycle once.
	out, _, _ := run(t, "replay", dup, "--no-tui")
	if n := strings.Count(out, "\ncycle 1 · "); n != 1 {
		t.Errorf("cycle 1 printed %d times, want once", n)
	}
}

// lineOfKind is the index of the n-th (from 0) line of a recording holding
// a record of kind.
func lineOfKind(t *testing.T, lines [][]byte, kind string, n int) int {
	t.Helper()
	for i, l := range lines {
		if bytes.Contains(l, []byte(`{"kind":"`+kind+`"`)) {
			if n == 0 {
				return i
			}
			n--
		}
	}
	t.Fatalf("no %s record in the recording", kind)
	return -1
}

// seqOf returns the sequence number of a cycle or queue record line.
func seqOf(t *testing.T, line []byte) int {
	t.Helper()
	var e struct {
		Cycle, Queue *struct{ Seq int }
	}
	if len(line) < 9 || json.Unmarshal(line[9:], &e) != nil || e.Cycle == nil && e.Queue == nil {
		t.Fatalf("not a cycle or queue record: %q", line)
	}
	if e.Cycle != nil {
		return e.Cycle.Seq
	}
	return e.Queue.Seq
}

// checksumLine frames a record body as a recording line.
func checksumLine(body string) string {
	return fmt.Sprintf("%08x %s\n", crc32.Checksum([]byte(body), crc32.MakeTable(crc32.Castagnoli)), body)
}

func TestRecordingCommandsNameTheirArgument(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"verify"}, "verify needs a recording file: kubectl schedscope verify FILE"},
		{[]string{"replay"}, "replay needs a recording file: kubectl schedscope replay FILE"},
		{[]string{"verify", "a.rec", "b.rec"}, "verify reads one recording file, not 2: kubectl schedscope verify FILE"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code == 0 {
				t.Fatal("exit 0")
			}
			checkOneLine(t, errOut, tt.want)
		})
	}
}

func TestReplayOfAFileWithoutHeader(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.rec")
	writeFile(t, empty, "", 0o600)
	short := filepath.Join(t.TempDir(), "short.rec")
	writeFile(t, short, "a548ffaa {\"kind\":\"hea", 0o600)
	tests := []struct {
		name string
		args []string
		want string
	}{
		// Without a terminal, replay fails before it waits for anything.
		{"empty, following", []string{"replay", empty}, "needs a terminal"},
		{"/dev/null, following", []string{"replay", "/dev/null"}, "needs a terminal"},
		{"empty, printed", []string{"replay", empty, "--no-tui"}, "empty.rec: recording is empty or its header is incomplete"},
		{"short, printed", []string{"replay", short, "--no-tui"}, "short.rec: recording is empty or its header is incomplete"},
		{"empty, verified", []string{"verify", empty}, "empty.rec: recording is empty or its header is incomplete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The deadline only bounds a hang; the test checks what is said.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			streams, _, _, errOut := genericiooptions.NewTestIOStreams()
			if code := ExecuteContext(ctx, streams, tt.args); code == 0 {
				t.Fatal("exit 0")
			}
			checkOneLine(t, errOut.String(), tt.want)
		})
	}
}

func TestReplayFollowWaitsForAHeaderAWhile(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.rec")
	writeFile(t, empty, "", 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	in, err := recorder.FollowFile(ctx, empty, time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	o := &ReplayOptions{File: empty, Follow: true, headerWait: 10 * time.Millisecond, streams: streams}
	if _, err := o.readHeader(in, cancel); err == nil || err.Error() != empty+" has no header after 10ms: not a recording, or its writer has not started" {
		t.Errorf("error %v, want the file named with how long replay waited", err)
	}
	if got := errOut.String(); got != "waiting for "+empty+"'s header…\n" {
		t.Errorf("stderr %q, want the wait announced", got)
	}

	// A header already there is read at once, and the wait is not announced.
	rec := record(t, "preemption")
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	if in, err = recorder.FollowFile(ctx, rec, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	streams, _, _, errOut = genericiooptions.NewTestIOStreams()
	o = &ReplayOptions{File: rec, Follow: true, headerWait: time.Hour, streams: streams}
	if rd, err := o.readHeader(in, cancel); err != nil || rd.Header().KubernetesVersion == "" {
		t.Errorf("readHeader: %v", err)
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr %q, want nothing", errOut)
	}
}

func TestRecordOutputErrorsAndStdout(t *testing.T) {
	_, errOut, code := run(t, "record", "-f", "preemption", "-o", "/nonexistent-dir/x.rec")
	if code == 0 {
		t.Fatal("exit 0")
	}
	checkOneLine(t, errOut, "/nonexistent-dir/x.rec: cannot create: directory /nonexistent-dir does not exist")
	if strings.Contains(errOut, "tmp") {
		t.Errorf("stderr %q names the temporary file", errOut)
	}

	dir := t.TempDir()
	t.Chdir(dir)
	out, errOut, code := run(t, "record", "-f", "preemption", "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rec, err := recorder.Load(strings.NewReader(out))
	if err != nil || len(rec.Cycles) != 2 || len(rec.Problems) != 0 {
		t.Fatalf("standard output read as a recording: %v, problems %v", err, rec.Problems)
	}
	checkOneLine(t, errOut, "wrote 2 cycles to standard output")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("record -o - left %d files in the working directory", len(entries))
	}
}

// TestRecordRefusesToOverwriteStandardInput gives record -f - standard
// input redirected from the output file (record -f - -o in.yaml <
// in.yaml), and through a link to it: it refuses, and the fixture is left
// as it was.
func TestRecordRefusesToOverwriteStandardInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.yaml")
	data, err := os.ReadFile("../../../fixtures/preemption.yaml")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, in, string(data), 0o644)
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{in, link, dir + "/./in.yaml"} {
		t.Run(filepath.Base(out), func(t *testing.T) {
			stdin, err := os.Open(in)
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			streams, _, _, errOut := genericiooptions.NewTestIOStreams()
			streams.In = stdin
			if code := Execute(streams, []string{"record", "-f", "-", "-o", out}); code == 0 {
				t.Fatal("exit 0")
			}
			checkOneLine(t, errOut.String(), "refusing to write "+out+": it is the file standard input (-f -) reads")
			after, err := os.ReadFile(in)
			if err != nil || !bytes.Equal(after, data) {
				t.Errorf("the fixture read from standard input changed (%d bytes, was %d): %v", len(after), len(data), err)
			}
		})
	}
	// Standard input from another file may be written to out as usual.
	other, err := os.Open("../../../fixtures/preemption.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	streams.In = other
	if code := Execute(streams, []string{"record", "-f", "-", "-o", filepath.Join(dir, "out.rec")}); code != 0 {
		t.Fatalf("record -f - from another file: exit %d: %s", code, errOut)
	}
}
