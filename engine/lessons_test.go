package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
)

// TestLessonsStateWhatTheirCyclesShow runs each lesson's fixture and checks
// every fact its steps state against the recorded cycle the step is about:
// the pod, the outcome, which plugin rejected which node (and why), the
// nodes that passed Filter, the plugins PreFilter skipped, by how much a
// node lost, what preemption nominated and evicted, the fast path, the
// ties, and a sampled search's size and where it began. Each name (and
// number) a fact holds must appear in the step's words, so the words cannot
// say what the facts do not.
func TestLessonsStateWhatTheirCyclesShow(t *testing.T) {
	names := fixtures.LessonNames()
	if len(names) < 3 {
		t.Fatalf("want the lessons under fixtures/lessons, got %v", names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			l, err := fixtures.ReadLesson(name)
			if err != nil {
				t.Fatal(err)
			}
			if l.FeatureGates != "" {
				gates, err := featuregates.Parse(l.FeatureGates)
				if err != nil {
					t.Fatalf("featureGates: %v", err)
				}
				t.Cleanup(func() { _ = featuregates.Reset() })
				if err := featuregates.Set(gates); err != nil {
					t.Fatal(err)
				}
			}
			data, err := fixtures.Read(l.Fixture)
			if err != nil {
				t.Fatal(err)
			}
			fx, err := fixture.Load(l.Fixture, data)
			if err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var queue []*recorder.QueueEvent
			var groups []*recorder.PodGroupCycle
			opts := Options{OnQueue: func(ev *recorder.QueueEvent) {
				mu.Lock()
				queue = append(queue, ev)
				mu.Unlock()
			}, OnPodGroup: func(g *recorder.PodGroupCycle) {
				mu.Lock()
				groups = append(groups, g)
				mu.Unlock()
			}}
			if l.Config != "" {
				if opts.Config, err = LoadConfig(l.Name+": config", []byte(l.Config)); err != nil {
					t.Fatal(err)
				}
			}
			_, cycles, _ := runEngineWith(t, fx, opts, false)
			for i, s := range l.Steps {
				idx := slices.IndexFunc(cycles, func(c *recorder.Cycle) bool { return c.Seq == s.Cycle })
				if idx < 0 {
					t.Errorf("step %d: no cycle %d in the run", i+1, s.Cycle)
					continue
				}
				mu.Lock()
				moves := queueSince(cycles, idx, queue)
				mu.Unlock()
				for _, problem := range checkFacts(cycles[idx], moves, s.Facts) {
					t.Errorf("step %d (cycle %d): %s", i+1, s.Cycle, problem)
				}
				mu.Lock()
				for _, problem := range checkGroupFact(recorder.GroupOf(groups, s.Cycle), s.Facts.Group) {
					t.Errorf("step %d (cycle %d): %s", i+1, s.Cycle, problem)
				}
				mu.Unlock()
				words := s.Say + " " + s.Ask + " " + s.Answer
				for _, n := range factNames(s.Facts) {
					if !strings.Contains(words, n) {
						t.Errorf("step %d: its facts name %q, its words do not", i+1, n)
					}
				}
			}
		})
	}
}

// queueSince returns the queue events of cycles[i]'s pod after its cycle
// before (or from the start) until cycles[i] began.
func queueSince(cycles []*recorder.Cycle, i int, queue []*recorder.QueueEvent) []*recorder.QueueEvent {
	c := cycles[i]
	var from time.Time
	for j := i - 1; j >= 0; j-- {
		if cycles[j].Pod.Key() == c.Pod.Key() {
			from = cycles[j].Start
			break
		}
	}
	var out []*recorder.QueueEvent
	for _, ev := range queue {
		if ev.Pod.Key() == c.Pod.Key() && ev.Time.After(from) && !ev.Time.After(c.Start) {
			out = append(out, ev)
		}
	}
	return out
}

// checkFacts lists what in f the cycle c, and the pod's queue moves
// before it, do not show.
func checkFacts(c *recorder.Cycle, moves []*recorder.QueueEvent, f fixtures.Facts) []string {
	var out []string
	bad := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if (f.Pod != "" || f.Owner == "") && c.Pod.Key() != f.Pod {
		bad("schedules %s, not %s", c.Pod.Key(), f.Pod)
	}
	if f.Owner != "" && c.Pod.Owner.String() != f.Owner {
		bad("schedules a pod of %q, not of %s", c.Pod.Owner.String(), f.Owner)
	}
	if f.Attempt > 0 && c.Attempt != f.Attempt {
		bad("is attempt %d, not %d", c.Attempt, f.Attempt)
	}
	next := 0
	for _, ev := range moves {
		if next == len(f.Queue) {
			break
		}
		q := f.Queue[next]
		hinted := q.Hint == "" || slices.ContainsFunc(ev.Hints, func(h recorder.QueueHint) bool {
			return h.Plugin == q.Hint && h.Hint == recorder.HintQueue
		})
		if ev.Event == q.Event && ev.To == q.To && hinted {
			next++
		}
	}
	if next < len(f.Queue) {
		var seen []string
		for _, ev := range moves {
			seen = append(seen, ev.Event+" → "+ev.To)
		}
		bad("the queue moves before it (%s) do not include, in order, %+v", strings.Join(seen, ", "), f.Queue[next])
	}
	for node, plugins := range f.Raw {
		for plugin, want := range plugins {
			got, found := int64(0), false
			if c.Score != nil {
				for i, n := range c.Score.Nodes {
					for _, p := range c.Score.Plugins {
						if c.NodeName(n) == node && p.Name == plugin {
							got, found = p.Raw[i], true
						}
					}
				}
			}
			switch {
			case !found:
				bad("%s did not score %s", plugin, node)
			case got != want:
				bad("%s scored %s %d, not %d", plugin, node, got, want)
			}
		}
	}
	if f.Result != "" && c.Outcome.Result != f.Result {
		bad("ended %s, not %s", c.Outcome.Result, f.Result)
	}
	if f.Node != "" && c.Outcome.Node != f.Node {
		bad("bound to %q, not %s", c.Outcome.Node, f.Node)
	}
	if len(f.Rejected) > 0 || len(f.Feasible) > 0 || len(f.Skipped) > 0 {
		if c.Filter == nil {
			bad("ran no Filter")
			return out
		}
	}
	for node, plugin := range f.Rejected {
		found := false
		for _, r := range c.Filter.Rejected {
			if c.NodeName(r.Node) != node {
				continue
			}
			found = true
			if r.Plugin < 0 || r.Plugin >= len(c.Filter.Plugins) || c.Filter.Plugins[r.Plugin] != plugin {
				bad("%s was rejected by another plugin than %s", node, plugin)
			}
			if f.Reason != "" && !strings.Contains(strings.Join(r.Reasons, "; "), f.Reason) {
				bad("%s's rejection (%v) does not say %q", node, r.Reasons, f.Reason)
			}
			if f.Code != "" && r.Code != f.Code {
				bad("%s was rejected %s, not %s", node, r.Code, f.Code)
			}
		}
		if !found {
			bad("%s was not rejected", node)
		}
	}
	if len(f.Feasible) > 0 {
		var got []string
		for _, n := range c.Filter.Feasible {
			got = append(got, c.NodeName(n))
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(f.Feasible))
		if !slices.Equal(got, want) {
			bad("feasible %v, not %v", got, want)
		}
	}
	for _, p := range f.Skipped {
		if !slices.Contains(c.Filter.Skipped, p) {
			bad("PreFilter did not skip %s (skipped %v)", p, c.Filter.Skipped)
		}
	}
	for _, p := range f.ScoreSkipped {
		skipped := c.Score != nil && slices.ContainsFunc(c.Score.PreScore, func(s recorder.PluginStatus) bool {
			return s.Plugin == p && s.Code == recorder.CodeSkip
		})
		if !skipped {
			bad("PreScore did not skip %s", p)
		}
	}
	if len(f.LostBy) > 0 {
		s := c.Score
		if s == nil || c.Selection == nil {
			bad("was not scored")
			return out
		}
		total := map[string]int64{}
		for i, n := range s.Nodes {
			total[c.NodeName(n)] = s.Totals[i]
		}
		for node, by := range f.LostBy {
			if got := total[c.Selection.Node] - total[node]; got != by {
				bad("%s lost by %d, not %d", node, got, by)
			}
		}
	}
	if f.Nominated != "" || len(f.Victims) > 0 {
		p := c.PostFilter
		if p == nil {
			bad("ran no PostFilter")
			return out
		}
		if p.NominatedNode != f.Nominated {
			bad("nominated %q, not %s", p.NominatedNode, f.Nominated)
		}
		var victims []string
		for _, cand := range p.Candidates {
			if cand.Node == p.NominatedNode {
				for _, v := range cand.Victims {
					victims = append(victims, v.Key())
				}
			}
		}
		if !slices.Equal(victims, f.Victims) {
			bad("victims %v, not %v", victims, f.Victims)
		}
	}
	if f.FastPath && c.FastPath == nil {
		bad("took no fast path")
	}
	if len(f.Ties) > 0 {
		var got []string
		if c.Selection != nil {
			for _, i := range c.Selection.Top {
				got = append(got, c.NodeName(i))
			}
		}
		slices.Sort(got)
		if want := slices.Sorted(slices.Values(f.Ties)); !slices.Equal(got, want) {
			bad("tied %v, not %v", got, want)
		}
	}
	if f.TieCount > 0 && (c.Selection == nil || len(c.Selection.Top) != f.TieCount) {
		got := 0
		if c.Selection != nil {
			got = len(c.Selection.Top)
		}
		bad("%d nodes tied, not %d", got, f.TieCount)
	}
	if f.Nodes > 0 && c.NumNodes() != f.Nodes {
		bad("the snapshot held %d nodes, not %d", c.NumNodes(), f.Nodes)
	}
	if f.NodesToFind > 0 && c.NodesToFind != f.NodesToFind {
		bad("the search stops after %d feasible nodes, not %d", c.NodesToFind, f.NodesToFind)
	}
	if f.SearchStart != nil && c.SearchStart != *f.SearchStart {
		bad("the search began at index %d, not %d", c.SearchStart, *f.SearchStart)
	}
	for plugin, w := range f.Weights {
		got := int64(0)
		if c.Score != nil {
			for _, p := range c.Score.Plugins {
				if p.Name == plugin {
					got = p.Weight
				}
			}
		}
		if got != w {
			bad("%s scored with weight %d, not %d", plugin, got, w)
		}
	}
	return out
}

// checkGroupFact lists what in f the pod-group cycle g (nil when the cycle
// was no member's) does not show.
func checkGroupFact(g *recorder.PodGroupCycle, f *fixtures.GroupFact) []string {
	if f == nil {
		return nil
	}
	if g == nil {
		return []string{fmt.Sprintf("was no member's cycle of a pod group, not of %s", f.Name)}
	}
	var out []string
	bad := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if g.Group.Key() != f.Name {
		bad("was a member's cycle of %s, not of %s", g.Group.Key(), f.Name)
	}
	if f.MinCount > 0 && g.MinCount != f.MinCount {
		bad("its group's minCount is %d, not %d", g.MinCount, f.MinCount)
	}
	if f.Result != "" && g.Outcome.Result != f.Result {
		bad("its pod-group cycle ended %s, not %s", g.Outcome.Result, f.Result)
	}
	var placed []string
	for _, m := range g.Members {
		if m.Node != "" {
			placed = append(placed, m.Pod.Name)
		}
	}
	if f.Placed != nil && !slices.Equal(placed, f.Placed) {
		bad("its pod-group cycle placed %v, not %v", placed, f.Placed)
	}
	if reverted := len(g.Reverted()) > 0; reverted != f.Reverted {
		bad("its pod-group cycle reverted placements: %v, not %v", reverted, f.Reverted)
	}
	return out
}

// factNames are the names a step's facts hold.
func factNames(f fixtures.Facts) []string {
	out := []string{f.Node, f.Nominated, f.Reason, f.Code} // the pod names the cycle
	if g := f.Group; g != nil {
		out = append(out, g.Name)
		out = append(out, g.Placed...)
		if g.MinCount > 0 {
			out = append(out, fmt.Sprintf("minCount %d", g.MinCount))
		}
		if g.Reverted {
			out = append(out, "reverted")
		}
	}
	for n, p := range f.Rejected {
		out = append(out, n, p)
	}
	out = append(out, f.Feasible...)
	out = append(out, f.Skipped...)
	out = append(out, f.ScoreSkipped...)
	out = append(out, f.Victims...)
	out = append(out, f.Ties...)
	for n := range f.LostBy {
		out = append(out, n)
	}
	for p := range f.Weights {
		out = append(out, p)
	}
	for n, plugins := range f.Raw {
		out = append(out, n)
		for p, score := range plugins {
			out = append(out, p, strconv.FormatInt(score, 10))
		}
	}
	for _, q := range f.Queue {
		out = append(out, q.Event, q.To, q.Hint)
	}
	out = append(out, f.Owner)
	if f.Attempt > 0 {
		out = append(out, strconv.Itoa(f.Attempt))
	}
	// Numbers are named too: the words must say them.
	for _, n := range []int{f.TieCount, f.Nodes, f.NodesToFind} {
		if n > 0 {
			out = append(out, strconv.Itoa(n))
		}
	}
	if f.SearchStart != nil {
		out = append(out, strconv.Itoa(*f.SearchStart))
	}
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}
