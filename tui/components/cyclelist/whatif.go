package cyclelist

import (
	"fmt"
	"slices"

	"github.com/schedscope/schedscope/recorder"
)

// AppendAfter adds a what-if re-run c, listed right after cycle index after
// and the re-runs already there, numbered tag (3'). The selection stays.
func (l *Model) AppendAfter(c *recorder.Cycle, after int, tag string) {
	if l.tags == nil {
		l.tags = map[int]string{}
	}
	e := recorder.EntryOf(c)
	l.entries = append(l.entries, e)
	l.observed = append(l.observed, nil)
	l.search = append(l.search, searchText(&e, nil)+" what-if whatif")
	i := len(l.entries) - 1
	l.tags[i] = tag
	pos := len(l.order)
	if k := slices.Index(l.order, after); k >= 0 {
		pos = k + 1
		for pos < len(l.order) && l.tags[l.order[pos]] != "" {
			pos++
		}
	}
	l.order = slices.Insert(l.order, pos, i)
	follow := l.follow
	l.SetFilter(l.filter)
	l.follow = follow && l.cursor == len(l.rows)-1
}

// Number is a row's number: the cycle's, or the what-if's tag.
func (l Model) Number(i int) string {
	if t, ok := l.tags[i]; ok {
		return t
	}
	return fmt.Sprint(l.entries[i].Seq)
}

// podCell is a row's pod, marked when the row is a what-if.
func (l Model) podCell(i int, pod string) string {
	if _, ok := l.tags[i]; ok {
		return l.st.WhatIf.Render("what-if") + " " + pod
	}
	return pod
}
