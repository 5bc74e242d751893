package commands

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
)

// explain -o markdown writes each cycle as a section with GitHub tables:
// every row of a table has as many cells as its header, the rejecting
// plugin is marked, the chosen node is bold, the losers say why.
func TestExplainMarkdown(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"explain", "-f", "preemption", "-o", "markdown"}, []string{
			`# Scheduling cycles of fixture \(embedded\) preemption`,
			"## Cycle 1 · `default/urgent` · ✗ Unschedulable; preemption nominated node-1",
			"> 0/2 nodes are available: 2 Insufficient cpu.",
			"| node-1 | ✓ | ✓ | ✓ | ↷ | ↷ | **✗** |",
			"### PostFilter (preemption)",
			"- candidate `node-1`: evict `default/filler-1` (priority 100) — **nominated**",
			`fast path: the pod's nominated node \(set by an earlier preemption\) node-1 passed every filter`,
		}},
		{[]string{"explain", "--pod", "web", "-o", "markdown"}, []string{
			"| **node-a** ★ | 300 | 90 | 0 | 0 | 73 | 0 | 463 |",
			"- node-d lost by 11: NodeResourcesFit −9, NodeResourcesBalancedAllocation −2",
			"## Story of `default/web` (Bound)",
		}},
	} {
		out, errOut, code := run(t, tt.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errOut)
		}
		for _, want := range tt.want {
			if !strings.Contains(out, want) {
				t.Errorf("%v: the Markdown lacks %q:\n%s", tt.args, want, out)
			}
		}
		// Every table row has its header's number of cells.
		cells := -1
		for _, l := range strings.Split(out, "\n") {
			if !strings.HasPrefix(l, "|") {
				cells = -1
				continue
			}
			n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|")
			if cells < 0 {
				cells = n
			} else if n != cells {
				t.Errorf("%v: a row of %d cells under a header of %d: %q", tt.args, n-1, cells-1, l)
			}
		}
	}
	if _, errOut, code := run(t, "replay", "../../../tui/testdata/default.rec", "--no-tui", "-o", "markdown"); code != 0 || errOut != "" {
		t.Errorf("replay --no-tui -o markdown: exit %d: %s", code, errOut)
	}
}

// A recorded string cannot break a table or a code span.
func TestMarkdownCell(t *testing.T) {
	if got, want := cell("a|b`c\\d\ne"), `a\|b'c\\d\\ne`; got != want {
		t.Errorf("cell = %q, want %q", got, want)
	}
}

// What a recording holds (a pod's name, an extender's message, a fixture's
// file name, a mark's note: here every string of each cycle) reads as text
// in the Markdown: no raw HTML, no link or image, however it is written.
func TestMarkdownEscapesRecordedText(t *testing.T) {
	const evil = "<img src=x onerror=alert(1)>[l](javascript:alert(3))![i](x.png)`code` *em* _em_ a|b"
	rec, err := recorder.LoadFile("../../../tui/testdata/default.rec")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	m := &markdownWriter{w: &out}
	for _, c := range rec.Cycles {
		setStrings(reflect.ValueOf(c).Elem(), evil)
		c.Outcome.Result = recorder.ResultUnschedulable
		m.marks = append(m.marks, recorder.Mark{Seq: c.Seq, Pod: c.Pod.Key(), Note: evil})
	}
	m.header(rec.Header, "fixture "+evil+".yaml")
	for _, c := range rec.Cycles {
		m.cycle(c)
	}
	md := out.String()
	if n := strings.Count(md, "&lt;img src=x onerror=alert\\(1\\)&gt;\\[l\\]\\(javascript:alert\\(3\\)\\)\\!\\[i\\]\\(x.png\\)'code' \\*em\\* \\_em\\_ a\\|b"); n < 10 {
		t.Errorf("the escaped text is there %d times:\n%s", n, md)
	}
	for _, raw := range []string{"<", "[l]", "](", "![", "`code`", "*em*", "_em_"} {
		if strings.Contains(md, raw) {
			t.Errorf("the Markdown has %q:\n%s", raw, md)
		}
	}
}

// setStrings sets every string v holds (fields, elements, pointed-to
// values; not map keys) to s.
func setStrings(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(s)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			setStrings(v.Elem(), s)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				setStrings(v.Field(i), s)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			setStrings(v.Index(i), s)
		}
	}
}
