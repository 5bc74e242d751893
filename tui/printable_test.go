package tui

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/recorder/visible"
	"github.com/schedscope/schedscope/tui/pages/cyclepage"
)

func TestPrintable(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "node-a", "node-a"},
		{"wide runes kept", "节点-✓", "节点-✓"},
		{"newline and return", "a\nb\r\nc", "a␊b␍␊c"},
		{"tab is a space", "a\tb", "a b"},
		{"escape sequence", "\x1b[2Jx", "␛[2Jx"},
		{"bell and nul", "\x07\x00", "␇␀"},
		{"del", "a\x7f", "a␡"},
		{"C1 CSI", "a\u009b2J", "a�2J"},
		{"invalid UTF-8", "a\xffb", "a�b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := printable(tt.in)
			if got != tt.want {
				t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if w, n := ansi.StringWidth(got), len([]rune(tt.want)); tt.name != "wide runes kept" && w != n {
				t.Errorf("printable(%q) is %d cells, want one per rune (%d)", tt.in, w, n)
			}
		})
	}
}

// fillStrings sets every exported string reachable from v (allocating nil
// pointers, one-element slices and maps on the way) to s.
func fillStrings(v reflect.Value, s string, depth int) {
	if depth > 12 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillStrings(v.Elem(), s, depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillStrings(v.Field(i), s, depth+1)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			fillStrings(v.Index(i), s, depth+1)
		}
	case reflect.Map:
		k := reflect.New(v.Type().Key()).Elem()
		e := reflect.New(v.Type().Elem()).Elem()
		fillStrings(k, s, depth+1)
		fillStrings(e, s, depth+1)
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(k, e)
	}
}

// strings lists every exported string reachable from v.
func allStrings(v reflect.Value, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		*out = append(*out, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			allStrings(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				allStrings(v.Field(i), out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			allStrings(v.Index(i), out)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			allStrings(it.Key(), out)
			allStrings(it.Value(), out)
		}
	}
}

// TestSanitizerReachesEveryString fills every string field of everything a
// source delivers with control characters: after the sanitizer none is
// left, and what the source handed over is untouched.
func TestSanitizerReachesEveryString(t *testing.T) {
	const dirty = "x\n\x1b[2J\x07"
	var (
		c  recorder.Cycle
		h  recorder.Header
		o  recorder.Observed
		es source.EngineState
		cs recorder.ClusterState
	)
	for _, v := range []any{&c, &h, &o, &es, &cs} {
		fillStrings(reflect.ValueOf(v), dirty, 0)
	}
	s := newSanitizer()
	for _, ev := range []source.Event{{Cycle: &c}, {Header: &h}, {Observed: &o}, {State: &es}, {Cluster: &cs}} {
		got := s.event(ev)
		for _, pair := range []struct {
			what string
			v    any
			want string
		}{{"cleaned", got, printable(dirty)}, {"original", ev, dirty}} {
			var all []string
			allStrings(reflect.ValueOf(pair.v), &all)
			if len(all) == 0 {
				t.Fatalf("%+v holds no strings", ev)
			}
			for _, str := range all {
				if str != pair.want {
					t.Errorf("%s %T: string %q, want %q", pair.what, pair.v, str, pair.want)
					break
				}
			}
		}
	}
	if c.Nodes == nil || s.event(source.Event{Cycle: &c}).Cycle.Nodes != s.event(source.Event{Cycle: &c}).Cycle.Nodes {
		t.Error("a node set shared by cycles should be cleaned once and stay shared")
	}
}

// TestSanitizerCleansUsage: the node use a replay reads through its index
// comes from the recording, not from cleaned cycles: its node names and
// every string of a node's use are made printable, and a clean use is kept.
func TestSanitizerCleansUsage(t *testing.T) {
	const dirty = "x\u202e\n\x1b[2J"
	var nu recorder.NodeUse
	fillStrings(reflect.ValueOf(&nu), dirty, 0)
	nu.Node = 0
	u := recorder.NewUsage()
	u.Apply(&recorder.Cycle{Nodes: &recorder.NodeSet{Names: []string{"node-" + dirty}}, NodeUse: []recorder.NodeUse{nu}})
	got := newSanitizer().usage(u)
	if _, ok := got.Node("node-" + printable(dirty)); !ok {
		t.Errorf("the cleaned use lacks node %q", "node-"+printable(dirty))
	}
	for name, use := range got.All() {
		all := []string{name}
		allStrings(reflect.ValueOf(use), &all)
		for _, str := range all[1:] {
			if str != printable(dirty) {
				t.Errorf("node %q: string %q, want %q", name, str, printable(dirty))
			}
		}
	}
	if _, ok := u.Node("node-" + dirty); !ok {
		t.Error("the use read was changed")
	}
	clean := recorder.UsageAt(loadRecording(t, "preemption").Cycles, 0)
	if newSanitizer().usage(clean) != clean {
		t.Error("a clean use was copied")
	}
}

func TestCleanCyclesAreNotCopied(t *testing.T) {
	s := newSanitizer()
	for _, c := range loadRecording(t, "preemption").Cycles {
		if got := s.event(source.Event{Cycle: c}).Cycle; got != c {
			t.Errorf("cycle %d was copied though it had nothing to clean", c.Seq)
		}
	}
}

// sgr matches the styling sequences the TUI writes itself.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// TestControlCharactersInRecordings: a pod name and plugin reasons holding
// newlines, carriage returns, screen-clearing escapes and bells neither
// break a line nor reach the terminal.
func TestControlCharactersInRecordings(t *testing.T) {
	const bad = "\n\r\x1b[2J\x07"
	c := makeCycle(1, "web"+bad+"x").nodes("node-a", "node-b"+bad, "node-c").
		reject(0, "Insufficient cpu"+bad+"more", "line one\nline two").
		score("NodeResourcesFit", 1, 40, 60).obj()
	c.Outcome.Message = "0/3\nnodes" + bad
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		w, h := size[0], size[1]
		m := New(Options{Source: "replay bad.rec"})
		m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
		m = send(m, eventsMsg{events: []source.Event{{Header: &recorder.Header{}}, {Cycle: c}, {Problem: fmt.Errorf("record 2: %q\nis bad\x1b[2J", "x")}}})
		check := func(m Model, where string) {
			t.Helper()
			raw := m.View().Content
			if ctl := strings.IndexFunc(sgr.ReplaceAllString(raw, ""), func(r rune) bool {
				return r < 0x20 && r != '\n' || r >= 0x7f && r <= 0x9f
			}); ctl >= 0 {
				t.Errorf("%dx%d %s: a control character reaches the terminal: %q", w, h, where, sgr.ReplaceAllString(raw, "")[max(ctl-20, 0):ctl+5])
			}
			lines := strings.Split(ansi.Strip(raw), "\n")
			if len(lines) != h {
				t.Errorf("%dx%d %s: %d lines, want %d:\n%s", w, h, where, len(lines), h, ansi.Strip(raw))
			}
			for i, l := range lines {
				if n := ansi.StringWidth(l); n != w {
					t.Errorf("%dx%d %s: line %d is %d cells wide, want %d: %q", w, h, where, i, n, w, l)
				}
			}
		}
		check(m, "list")
		check(keys(m, "!"), "problems")
		m = keys(m, "enter")
		for p := range cyclepage.NumPhases {
			m = toPhase(t, m, p)
			check(m, p.String())
			check(keys(m, "e"), p.String()+" explained")
		}
		m = toPhase(t, m, cyclepage.Filter)
		check(keys(m, "j", "enter"), "node detail")
		// At 80 columns the header's pod name gives up its middle so that
		// the outcome shows: its start still shows the pictures.
		want := "web␊␍␛[2J␇x"
		if w < 100 {
			want = "web␊␍␛[2J…"
		}
		if s := screen(m); !strings.Contains(s, want) {
			t.Errorf("%dx%d: the pod name should show its control characters as pictures (%q):\n%s", w, h, want, s)
		}
	}
	if c.Pod.Name != "web"+bad+"x" {
		t.Errorf("the source's cycle was changed: pod %q", c.Pod.Name)
	}
}

func TestCleanCycleDiff(t *testing.T) {
	c := makeCycle(1, "a\tb").nodes("n").score("S", 1, 1).obj()
	got := newSanitizer().event(source.Event{Cycle: c}).Cycle
	want := *c
	want.Pod.Name = "a b"
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("cleaned cycle (-want +got):\n%s", diff)
	}
}

// bidiControls are the characters that reorder or hide text without being
// control characters: the bidirectional embeddings, overrides, isolates and
// marks, zero-width characters and the line and paragraph separators.
var bidiControls = []rune{
	'\u202a', '\u202b', '\u202c', '\u202d', '\u202e', // embeddings, pop, overrides
	'\u2066', '\u2067', '\u2068', '\u2069', // isolates
	'\u200e', '\u200f', '\u061c', // marks
	'\u200b', '\u200d', '\ufeff', // zero-width
	'\u2028', '\u2029', // separators
}

func TestPrintableEscapesBidiControlsAsTheTextOutputDoes(t *testing.T) {
	for _, r := range bidiControls {
		in := "a" + string(r) + "b"
		if got, want := printable(in), visible.String(in); got != want {
			t.Errorf("printable(%q) = %q, want %q as the text output shows it", in, got, want)
		}
	}
}

// TestBidiControlsInRecordings: a recording whose names, reasons, messages
// and plugin names hold right-to-left overrides, isolates and marks is
// drawn with each of them escaped as the text output escapes it (\u202e),
// in every view, whether the replay is read whole or through an index.
func TestBidiControlsInRecordings(t *testing.T) {
	pod := "web\u202etxt.exe"
	c := makeCycle(1, pod).nodes("node-a\u200f", "node-b\u2067x\u2069", "node-c\u2028").
		reject(2, "Insufficient\u2068 cpu\u2069", "mark\u200e\u061c").
		score("Score\u202dPlugin", 1, 40, 60).obj()
	c.Pod.Namespace = "default\u2066ns\u2069"
	c.Filter.Plugins[1] = "Evil\u202eNIGULP"
	c.Outcome.Message = "0/3 nodes\u202b\u202c\u200b\ufeff"
	c.Nodes.Info = []recorder.NodeInfo{
		{Labels: map[string]string{"zone\u202a": "east\u2029"}, Allocatable: map[string]int64{"cpu": 4000}},
		{Allocatable: map[string]int64{"cpu": 4000}},
		{Allocatable: map[string]int64{"cpu": 4000}},
	}
	for i := range c.Nodes.Names {
		c.NodeUse = append(c.NodeUse, recorder.NodeUse{Node: i, Generation: 1, Requested: map[string]int64{"cpu": 1000},
			Pods: []recorder.PodRef{{Namespace: "default", Name: fmt.Sprintf("old\u2066pod-%d", i)}}})
	}
	queue := &recorder.QueueEvent{Seq: 1, Pod: c.Pod, Op: recorder.QueueMove, To: recorder.QueueBackoff, Event: "Node\u202eAdd",
		Hints: []recorder.QueueHint{{Plugin: "Evil\u202eNIGULP", Hint: recorder.HintQueue}}}
	header := &recorder.Header{SchedscopeVersion: "v\u202e1", Profiles: []recorder.Profile{{SchedulerName: "default-scheduler"}}}

	check := func(t *testing.T, m Model, where string) string {
		t.Helper()
		s := screen(m)
		if i := strings.IndexFunc(s, func(r rune) bool { return r != '\n' && visible.Hidden(r) }); i >= 0 {
			r, _ := utf8.DecodeRuneInString(s[i:])
			t.Errorf("%s: %U reaches the terminal: %q", where, r, s[max(i-20, 0):min(i+20, len(s))])
		}
		return s
	}
	wants := func(t *testing.T, s, where string, raw ...string) {
		t.Helper()
		for _, r := range raw {
			if want := visible.String(r); !strings.Contains(s, want) {
				t.Errorf("%s: the screen lacks %s, as the text output shows %q:\n%s", where, want, r, s)
			}
		}
	}
	sessions := []struct {
		name string
		open func(w, h int) Model
		keys func(Model, ...string) Model
	}{
		{"whole", func(w, h int) Model {
			m := New(Options{Source: "replay bidi.rec"})
			m = send(m, tea.WindowSizeMsg{Width: w, Height: h})
			return send(m, eventsMsg{events: []source.Event{{Header: header}, {Queue: queue}, {Cycle: c}, {Problem: errors.New("record at byte 9: pod \u202ex")}}})
		}, keys},
		{"indexed", func(w, h int) Model {
			m, _ := indexedSession(t, []*recorder.Cycle{c}, header, w, h)
			return settle(m, eventsMsg{events: []source.Event{{Queue: queue}, {Problem: errors.New("record at byte 9: pod \u202ex")}}})
		}, settleKeys},
	}
	for _, session := range sessions {
		for _, size := range [][2]int{{80, 24}, {200, 50}} {
			t.Run(fmt.Sprintf("%s %dx%d", session.name, size[0], size[1]), func(t *testing.T) {
				m := session.open(size[0], size[1])
				if size[0] == 200 {
					wants(t, check(t, m, "list"), "list", pod)
				}
				wants(t, check(t, session.keys(m, "!"), "problems"), "problems", "pod \u202ex")
				check(t, session.keys(m, "P"), "pods")
				m = session.keys(m, "enter")
				wants(t, check(t, m, "cycle"), "cycle", pod)
				for p := range cyclepage.NumPhases {
					m = toPhase(t, m, p)
					check(t, m, p.String())
					check(t, session.keys(m, "e"), p.String()+" explained")
				}
				m = toPhase(t, m, cyclepage.Filter)
				for _, k := range []string{"enter", "j"} {
					m = session.keys(m, k)
					detail := check(t, m, "node detail")
					wants(t, detail, "node detail", "old\u2066pod-")
				}
			})
		}
	}
	if c.Pod.Name != pod {
		t.Errorf("the source's cycle was changed: pod %q", c.Pod.Name)
	}
}
