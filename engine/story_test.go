package engine

import (
	"fmt"
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// A run asked for one pod's story (Options.Story, explain --pod) stops once
// nothing left could change it, and not before: the story it tells is the
// one the whole run tells.
func TestStoryStopsWhenNothingLeftCanChangeIt(t *testing.T) {
	const high = "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n"
	hi := "  priorityClassName: high\n"
	for _, c := range []struct {
		name, data, story string
		// want are the pods that get a cycle when the story is asked for.
		want []string
	}{
		{"the pods after it cannot preempt it", high + sizedNode("n1", "4", "") + cpuPod("a", "1", "") + cpuPod("b", "1", "") + cpuPod("c", "1", ""),
			"a", []string{"a"}},
		{"the middle one's", high + sizedNode("n1", "4", "") + cpuPod("a", "1", "") + cpuPod("b", "1", "") + cpuPod("c", "1", ""),
			"default/b", []string{"a", "b"}},
		{"a later pod of higher priority may preempt it", high + sizedNode("n1", "4", "") + cpuPod("a", "2", "") + cpuPod("b", "1", "") + cpuPod("hi", "3", hi),
			"a", []string{"a", "b", "hi"}},
		{"a pod of higher priority is still pending", high + sizedNode("n1", "4", "") + cpuPod("x", "5", hi) + cpuPod("a", "1", "") + cpuPod("b", "1", ""),
			"a", []string{"x", "a", "b"}},
		{"a timeline step is left", high + sizedNode("n1", "4", "") + cpuPod("a", "1", "") + nodeDoc("n2", "") + cpuPod("b", "1", ""),
			"a", []string{"a", "b"}},
		{"it is not bound", high + sizedNode("n1", "4", "") + cpuPod("a", "5", "") + cpuPod("b", "1", ""),
			"a", []string{"a", "b"}},
		{"a later pod has its controller", high + sizedNode("n1", "4", "") + ownedPod("a") + cpuPod("b", "1", "") + ownedPod("c"),
			"a", []string{"a", "b", "c"}},
		{"a later pod has another controller", high + sizedNode("n1", "4", "") + ownedPod("a") + cpuPod("b", "1", ""),
			"a", []string{"a"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			load := func() *fixture.Fixture {
				fx, err := fixture.Load(c.name, []byte(c.data))
				if err != nil {
					t.Fatal(err)
				}
				return fx
			}
			story := func(p *v1.Pod) bool { return p.Name == c.story || p.Namespace+"/"+p.Name == c.story }
			res, asked, _ := runEngineWith(t, load(), Options{Story: story}, false)
			if n := len(load().Pending) - len(c.want); res.Stopped != n {
				t.Errorf("the run says %d pods did not arrive, want %d", res.Stopped, n)
			}
			var got []string
			for _, cy := range asked {
				if !slices.Contains(got, cy.Pod.Name) {
					got = append(got, cy.Pod.Name)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("pods with a cycle %v, want %v", got, c.want)
			}
			// The story is the whole run's.
			_, whole, _ := runEngineWith(t, load(), Options{}, false)
			mine := func(cs []*recorder.Cycle) []recorder.CycleSummary {
				var out []recorder.CycleSummary
				for _, cy := range cs {
					if cy.Pod.Name == c.story || cy.Pod.Key() == c.story {
						out = append(out, recorder.Summarize(cy))
					}
				}
				return out
			}
			if a, w := mine(asked), mine(whole); !slices.Equal(a, w) || len(a) == 0 {
				t.Errorf("the story's cycles %v, the whole run's %v", a, w)
			}
		})
	}
}

// ownedPod is a pending pod of a ReplicaSet the fixture does not hold.
func ownedPod(name string) string {
	return fmt.Sprintf("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7d9, uid: 0b5a3c1e-0000-4000-8000-000000000001, controller: true}]\nspec:\n  containers: [{name: c, image: i, resources: {requests: {cpu: \"1\"}}}]\n", name)
}
