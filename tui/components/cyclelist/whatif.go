package cyclelist

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/podnames"
)

// AppendAfter adds a what-if re-run c, listed right after cycle index after
// and the re-runs already there, numbered tag (3') and saying what it
// changed (what) where other rows name their pod: the pod is the one of the
// cycle above. The selection stays.
func (l *Model) AppendAfter(c *recorder.Cycle, after int, tag, what string) {
	if l.tags == nil {
		l.tags, l.what = map[int]string{}, map[int]string{}
	}
	e := recorder.EntryOf(c)
	l.entries = append(l.entries, e)
	l.observed = append(l.observed, nil)
	l.search = append(l.search, searchText(&e, nil)+" what-if whatif "+strings.ToLower(what))
	i := len(l.entries) - 1
	l.tags[i], l.what[i] = tag, what
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

// podCell is a row's pod, w cells at most, keeping the part of its name
// that tells it from the other pods listed (dropNS leaves the namespace
// out), or, for a what-if, what it changed.
func (l Model) podCell(i int, dropNS bool, w int) string {
	pod := l.entries[i].Pod
	if _, ok := l.tags[i]; ok {
		return l.st.WhatIf.Render("what-if:") + " " + cmp.Or(l.what[i], pod.Key())
	}
	s, shared := pod.Key(), l.names.Shared(pod)
	if dropNS && pod.Namespace != "" {
		s, shared = pod.Name, shared-len(pod.Namespace)-1
	}
	return podnames.Fit(s, shared, w)
}
