package report

import (
	"bytes"
	"encoding/json"
	"io"
	"iter"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/export/html"
	"github.com/schedscope/schedscope/recorder/export/markdown"
	"github.com/schedscope/schedscope/recorder/export/text"
)

// Stream is what replay --no-tui prints: a recording's cycles, taken one
// at a time from an iterator so that only one is in memory.
type Stream struct {
	Header recorder.Header
	// Source says where the cycles come from, for the header.
	Source   string
	Problems []error
	// N is how many cycles Cycles yields.
	N        int
	Cycles   iter.Seq2[*recorder.Cycle, error]
	Observed []*recorder.Observed
	Groups   []*recorder.PodGroupCycle
	Pods     []recorder.PodState
	// Cluster is what a fixture run's controllers left, when the
	// recording holds it.
	Cluster *recorder.ClusterState
	// Marks are the cycles a user marked with a note (Markdown and HTML).
	Marks []recorder.Mark
	// Short, if set, gives the numbers behind a cycle's resource rejections.
	Short func(*recorder.Cycle) *recorder.Shortfalls
}

// Print writes what Cycles.Print writes for the same cycles, byte for
// byte: text cycle by cycle, and the JSON and YAML documents with their
// cycles written between the rest of the document. Markdown and HTML also
// carry the marks.
func (s *Stream) Print(w io.Writer, format string) error {
	h, source, problems, n, cycles := s.Header, s.Source, s.Problems, s.N, s.Cycles
	observed, groups, pods, cluster, marks, short := s.Observed, s.Groups, s.Pods, s.Cluster, s.Marks, s.Short
	if short == nil {
		short = func(*recorder.Cycle) *recorder.Shortfalls { return nil }
	}
	// The members' cycles, kept for their groups' members × nodes.
	members := map[int]bool{}
	for _, g := range groups {
		for _, m := range g.Members {
			members[m.Cycle] = true
		}
	}
	if format == "markdown" {
		md := &markdown.Writer{Out: document.Out{W: w, Marks: marks, Short: short}}
		md.Header(h, source)
		kept := map[int]*recorder.Cycle{}
		for c, err := range cycles {
			if err != nil {
				return err
			}
			md.Cycle(c)
			md.MemberGroup(c, groups)
			if members[c.Seq] {
				kept[c.Seq] = c
			}
		}
		for _, g := range groups {
			md.PodGroup(g, kept)
		}
		md.Summary(document.SummaryOf(problemTexts(problems), pods, cluster, nil))
		return md.Err()
	}
	if format == "html" {
		hw := &html.Writer{Out: document.Out{W: w, Marks: marks, Short: short}}
		hw.Begin(h, source)
		kept := map[int]*recorder.Cycle{}
		for c, err := range cycles {
			if err != nil {
				return err
			}
			hw.Cycle(c)
			hw.MemberGroup(c, groups)
			if members[c.Seq] {
				kept[c.Seq] = c
			}
		}
		for _, g := range groups {
			hw.PodGroup(g, kept)
		}
		hw.Summary(document.SummaryOf(problemTexts(problems), pods, cluster, nil))
		hw.End()
		return hw.Err()
	}
	if format == "text" {
		t := text.New(w)
		t.Short = short
		t.Header(h, source, nil)
		kept := map[int]*recorder.Cycle{}
		for c, err := range cycles {
			if err != nil {
				return err
			}
			t.Cycle(c)
			t.MemberGroup(c, groups)
			if members[c.Seq] {
				kept[c.Seq] = c
			}
		}
		for _, g := range groups {
			t.PodGroup(g, kept)
		}
		for _, ob := range observed {
			t.Observed(ob)
		}
		t.Summary(document.SummaryOf(nil, pods, cluster, nil))
		return t.Err()
	}
	doc := export.NewDocument(h, nil, observed)
	doc.Pods = export.NewPodStates(pods)
	doc.Cluster = cluster
	doc.PodGroups = groups
	for _, p := range problems {
		doc.Problems = append(doc.Problems, p.Error())
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if format == "yaml" {
		if data, err = export.YAML(data); err != nil {
			return err
		}
	}
	// The document without cycles has them as an empty list, once (inside
	// a JSON string a quote is escaped, so the key cannot appear there).
	empty := []byte(`"cycles": []`)
	if format == "yaml" {
		empty = []byte("cycles: []\n")
	}
	before, after, ok := bytes.Cut(data, empty)
	if !ok || n == 0 {
		_, err := w.Write(append(data, '\n'))
		return err
	}
	if _, err := w.Write(before); err != nil {
		return err
	}
	if format == "json" {
		io.WriteString(w, `"cycles": [`)
	} else {
		io.WriteString(w, "cycles:\n")
	}
	first := true
	for c, err := range cycles {
		if err != nil {
			return err
		}
		ec := export.NewCycle(c).WithShortfalls(c, short(c))
		if format == "json" {
			item, err := json.MarshalIndent(ec, "    ", "  ")
			if err != nil {
				return err
			}
			if !first {
				io.WriteString(w, ",")
			}
			io.WriteString(w, "\n    ")
			if _, err := w.Write(item); err != nil {
				return err
			}
		} else {
			one, err := json.Marshal([]export.Cycle{ec})
			if err != nil {
				return err
			}
			item, err := export.YAML(one)
			if err != nil {
				return err
			}
			if _, err := w.Write(item); err != nil {
				return err
			}
		}
		first = false
	}
	if format == "json" {
		io.WriteString(w, "\n  ]")
	}
	_, err = w.Write(append(after, '\n'))
	return err
}

// problemTexts are the problems found in a recording, as the warnings of a
// Markdown or HTML summary.
func problemTexts(problems []error) []string {
	var out []string
	for _, p := range problems {
		out = append(out, p.Error())
	}
	return out
}
