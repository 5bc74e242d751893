package commands

import (
	"bytes"
	"encoding/json"
	"io"
	"iter"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
)

// printCycles writes what cyclesOutput.print writes for the same cycles,
// byte for byte, taking the cycles one at a time from an iterator so that
// only one is in memory: text cycle by cycle, and the JSON and YAML
// documents with their cycles written between the rest of the document.
// Markdown and HTML also carry marks, the cycles a user marked with a note.
func printCycles(w io.Writer, format string, h recorder.Header, source string, problems []error, n int, cycles iter.Seq2[*recorder.Cycle, error], observed []*recorder.Observed, groups []*recorder.PodGroupCycle, pods []recorder.PodState, marks []recorder.Mark) error {
	if format == "markdown" {
		md := &markdownWriter{w: w, marks: marks}
		md.header(h, source)
		for c, err := range cycles {
			if err != nil {
				return err
			}
			md.cycle(c)
		}
		return md.err
	}
	if format == "html" {
		hw := &htmlWriter{w: w, marks: marks}
		hw.begin(h, source)
		for c, err := range cycles {
			if err != nil {
				return err
			}
			hw.cycle(c)
		}
		hw.end()
		return hw.err
	}
	if format == "text" {
		t := newTextWriter(w)
		t.header(h, source, nil)
		// The members' cycles, kept for their groups' members × nodes.
		members := map[int]bool{}
		for _, g := range groups {
			for _, m := range g.Members {
				members[m.Cycle] = true
			}
		}
		kept := map[int]*recorder.Cycle{}
		for c, err := range cycles {
			if err != nil {
				return err
			}
			t.cycle(c)
			t.memberGroup(c, groups)
			if members[c.Seq] {
				kept[c.Seq] = c
			}
		}
		for _, g := range groups {
			t.podGroup(g, kept)
		}
		for _, ob := range observed {
			t.observed(ob)
		}
		t.podStates(pods, nil)
		return t.err
	}
	doc := export.NewDocument(h, nil, observed)
	doc.Pods = export.NewPodStates(pods)
	doc.PodGroups = groups
	for _, p := range problems {
		doc.Problems = append(doc.Problems, p.Error())
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if format == "yaml" {
		if data, err = jsonToYAML(data); err != nil {
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
		ec := export.NewCycle(c)
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
			item, err := jsonToYAML(one)
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
