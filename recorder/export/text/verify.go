package text

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// Verify prints what the check of the recording file found: its header,
// how many records of each kind it holds, whether its writer ended it, and
// each problem. The header's strings come from the file: printed through
// Printf, they cannot act on the terminal.
func (t *Writer) Verify(file string, s *recorder.Summary) {
	h := s.Header
	if h.Unreadable {
		t.Printf("%s: header unreadable\n", file)
	} else {
		t.Printf("%s: schedscope %s · kube-scheduler %s · %s %s\n", file, h.SchedscopeVersion, h.KubernetesVersion, h.Source.Kind, h.Source.Name)
	}
	records := narrate.Count(s.Records, "record")
	if s.OutOfPlace > 0 {
		records += fmt.Sprintf(" (%d out of place)", s.OutOfPlace)
	}
	cluster := ""
	if s.Cluster {
		cluster = ", the controllers' end state"
	}
	t.Printf("%s: %s, %s, %s, %s%s\n", records,
		withSkipped(s.Cycles, "cycle", s.DuplicateCycles, 0), withSkipped(s.NodeSets, "node set", s.DuplicateNodeSets, 0),
		withSkipped(s.Queue, "queue event", s.DuplicateQueue, s.OutOfOrderQueue), narrate.Count(s.Observed, "observed binding"), cluster)
	if s.PodGroups > 0 {
		t.Printf("%s\n", narrate.Count(s.PodGroups, "pod-group cycle"))
	}
	if s.Ended {
		t.Printf("ended by its writer\n")
	} else {
		t.Printf("no end record: its writer stopped before closing it, or is still writing it\n")
	}
	kinds := slices.Sorted(maps.Keys(s.Unknown))
	for _, k := range kinds {
		t.Printf("skipped %s of unknown kind %s (written by a newer schedscope?)\n", narrate.Count(s.Unknown[k], "record"), strconv.Quote(k))
	}
	if len(s.Problems) == 0 {
		t.Printf("no problems\n")
		return
	}
	t.Printf("%s:\n", narrate.Count(len(s.Problems), "problem"))
	for _, p := range s.Problems {
		t.Printf("  %s\n", p.Error())
	}
}

// withSkipped counts distinct things and, when there are any, the repeats
// skipped and the records out of order (skipped when copied, kept when moved).
func withSkipped(n int, thing string, dups, outOfOrder int) string {
	var skipped []string
	if dups > 0 {
		skipped = append(skipped, narrate.Count(dups, "duplicate"))
	}
	if outOfOrder > 0 {
		skipped = append(skipped, fmt.Sprintf("%d out of order", outOfOrder))
	}
	if len(skipped) == 0 {
		return narrate.Count(n, thing)
	}
	return fmt.Sprintf("%s (%s)", narrate.Count(n, thing), strings.Join(skipped, ", "))
}
