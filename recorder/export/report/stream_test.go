package report

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
)

// TestStreamPrintsWhatCyclesPrint checks that replay --no-tui, which
// reads one cycle at a time, writes what printing them all at once writes.
func TestStreamPrintsWhatCyclesPrint(t *testing.T) {
	recs, _ := filepath.Glob("../../../tui/testdata/*.rec")
	if len(recs) == 0 {
		t.Fatal("no recordings under tui/testdata")
	}
	for _, path := range recs {
		rec, err := recorder.LoadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, cycles := range [][]*recorder.Cycle{rec.Cycles, nil} {
			for _, format := range []string{"text", "json", "yaml", "markdown", "html"} {
				problems := []error{errors.New(`a problem, "quoted": [] cycles: []`)}
				var want, got bytes.Buffer
				pods := recorder.PodStates(cycles, nil, rec.Queue)
				out := Cycles{Header: rec.Header, Source: "recording x", Problems: problems, Cycles: cycles, Observed: rec.Observed, Groups: rec.PodGroups, Pods: pods}
				if err := out.Print(&want, format); err != nil {
					t.Fatal(err)
				}
				each := func(yield func(*recorder.Cycle, error) bool) {
					for _, c := range cycles {
						if !yield(c, nil) {
							return
						}
					}
				}
				s := Stream{Header: rec.Header, Source: "recording x", Problems: problems, N: len(cycles), Cycles: each, Observed: rec.Observed, Groups: rec.PodGroups, Pods: pods}
				if err := s.Print(&got, format); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want.String(), got.String()); diff != "" {
					t.Errorf("%s, %d cycles, -o %s (-Cycles +Stream):\n%s", filepath.Base(path), len(cycles), format, diff)
				}
			}
		}
	}
}
