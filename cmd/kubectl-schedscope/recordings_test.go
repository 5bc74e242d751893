package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/commands"
	"github.com/schedscope/schedscope/recorder"
)

var updateRecordings = flag.Bool("update-recordings", false, "rewrite tui/testdata/*.rec from the current engine")

// tuiRecordings are the embedded fixtures the TUI's tests replay, recorded
// with the diagnostic pass on every cycle so that every view has data.
var tuiRecordings = []string{"default", "preemption", "taints-tolerations", "topology-spread", "unschedulable", "gang", "gang-zones", "composite"}

// tuiRecordingArgs are what a recording that is not of an embedded fixture
// runs instead of -f NAME.
var tuiRecordingArgs = map[string][]string{
	"gang":       {"-f", filepath.Join("..", "..", "engine", "testdata", "gang.yaml"), "--feature-gates=GenericWorkload=true"},
	"gang-zones": {"-f", "gang-zones", "--feature-gates=GenericWorkload=true,TopologyAwareWorkloadScheduling=true"},
	"composite":  {"-f", filepath.Join("..", "..", "fixtures", "gated", "composite.yaml"), "--feature-gates=GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true"},
}

// outline is what a recording must keep from one engine run to the next: the
// scheduler, and for each cycle the pod, the nodes it saw, the outcome and
// the choice. Times, durations and preemption victims (picked among equals)
// are left out.
func outline(rec *recorder.Recording) []string {
	var profiles []string
	for _, p := range rec.Header.Profiles {
		profiles = append(profiles, p.SchedulerName)
	}
	out := []string{fmt.Sprintf("kube-scheduler %s, profiles %v", rec.Header.KubernetesVersion, profiles)}
	// By number: the order cycles are written in is not a decision (a
	// gang's bound members are written as their bindings end, in either
	// order).
	cycles := slices.Clone(rec.Cycles)
	slices.SortStableFunc(cycles, func(a, b *recorder.Cycle) int { return a.Seq - b.Seq })
	for _, c := range cycles {
		// Which node of a tie is picked is random, in the scheduler as
		// here: a tie is outlined by its nodes, in name order.
		tie := c.Selection != nil && c.Selection.Rule == recorder.RuleTie
		line := fmt.Sprintf("cycle %d %s attempt %d profile %s nodes %v: %s", c.Seq, c.Pod.Key(), c.Attempt, c.Profile, nodeNames(c), c.Outcome.Result)
		if c.Outcome.Node != "" && !tie {
			line += " on " + c.Outcome.Node
		}
		if c.Outcome.NominatedNode != "" {
			line += " nominated " + c.Outcome.NominatedNode
		}
		if c.Selection != nil {
			var top []string
			for _, n := range c.Selection.Top {
				top = append(top, c.NodeName(n))
			}
			if tie {
				slices.Sort(top)
			}
			line += fmt.Sprintf(" by %s among %v", c.Selection.Rule, top)
		}
		line += fmt.Sprintf(" diagnostic=%v", c.Diagnostic != nil)
		out = append(out, line, "  "+c.Outcome.Message)
	}
	// A pod-group cycle by its members and whether each was placed (which
	// node of a tie is random), its outcome and condition.
	for _, g := range rec.PodGroups {
		line := fmt.Sprintf("pod-group cycle %d %s %s minCount %d:", g.Seq, g.Group.Key(), g.Policy, g.MinCount)
		for _, m := range g.Members {
			line += fmt.Sprintf(" %s(cycle %d placed=%v)", m.Pod.Name, m.Cycle, m.Node != "")
		}
		line += " " + g.Outcome.Result
		if g.Condition != nil {
			line += " " + g.Condition.Type + "=" + g.Condition.Status
		}
		out = append(out, line)
		// Its placements in the order tried (schedscope's fixed order of
		// what kube-scheduler tries in map order), and the verdicts about
		// each group of a hierarchy.
		if p := g.Placements; p != nil {
			line := "  placements:"
			for _, c := range p.Candidates {
				line += fmt.Sprintf(" %s(tried=%v %s)", c.Name, c.Tried, c.Code)
			}
			out = append(out, line+fmt.Sprintf(" chosen %d", p.Chosen))
		}
		for _, h := range g.Hierarchy {
			var codes []string
			for _, v := range h.Feasible {
				codes = append(codes, v.Code)
			}
			out = append(out, fmt.Sprintf("  %s %s: %v", h.Kind, h.Name, codes))
		}
	}
	return out
}

func nodeNames(c *recorder.Cycle) []string {
	var names []string
	for i := range c.NumNodes() {
		names = append(names, c.NodeName(i))
	}
	return names
}

// TestTUIRecordingsAreCurrent records each fixture the TUI's tests replay with
// the current engine and checks the checked-in recording tells the same
// story. With -update-recordings it rewrites them instead (make goldens).
func TestTUIRecordingsAreCurrent(t *testing.T) {
	dir := filepath.Join("..", "..", "tui", "testdata")
	for _, name := range tuiRecordings {
		t.Run(name, func(t *testing.T) {
			fresh := filepath.Join(t.TempDir(), name+".rec")
			streams, _, _, errOut := genericiooptions.NewTestIOStreams()
			args := tuiRecordingArgs[name]
			if args == nil {
				args = []string{"-f", name}
			}
			if code := commands.Execute(streams, append([]string{"record", "--diagnostic", "always", "-o", fresh}, args...)); code != 0 {
				t.Fatalf("record -f %s: exit %d: %s", name, code, errOut)
			}
			now, err := recorder.LoadFile(fresh)
			if err != nil {
				t.Fatal(err)
			}
			if len(now.Cycles) == 0 {
				t.Fatalf("recording %s has no cycles", name)
			}
			checked := filepath.Join(dir, name+".rec")
			if *updateRecordings {
				b, err := os.ReadFile(fresh)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(checked, b, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			then, err := recorder.LoadFile(checked)
			if err != nil {
				t.Fatalf("%v (regenerate with: make goldens)", err)
			}
			if diff := cmp.Diff(outline(then), outline(now)); diff != "" {
				t.Errorf("%s is stale; regenerate with make goldens (-checked-in +current engine):\n%s", checked, strings.TrimSpace(diff))
			}
		})
	}
}
