package live

import (
	"cmp"
	"fmt"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
)

// ForkAt forks the session at one of its recorded cycles, from the cluster as
// mirrored now: the nodes in the order that cycle saw them (new ones after),
// every pod placed on them, the pods nominated by preemption, and the other
// objects the scheduler reads. The fork and its runs live in memory only;
// nothing is sent to the cluster. Since the cluster moves on, the fork's Note
// says so when it was taken after the cycle.
func (s *Session) ForkAt(c *recorder.Cycle) (*engine.Fork, error) {
	tr := s.engine.Tracker()
	pod := s.enginePod(c.Pod.Namespace, c.Pod.Name)
	if pod == nil || (c.Pod.UID != "" && string(pod.UID) != c.Pod.UID) {
		return nil, fmt.Errorf("pod %s is no longer in the cluster", c.Pod.Key())
	}
	pod = pod.DeepCopy()
	pod.Spec.NodeName = ""
	h := s.engine.Header()
	f := &engine.Fork{
		Recorded:    c,
		Header:      h,
		Name:        h.Source.Name,
		Pod:         pod,
		Config:      s.cfg.DeepCopy(),
		Profile:     c.Profile,
		SearchStart: c.SearchStart,
		Diagnostic:  s.opts.Diagnostic,
		Note:        "forked from the cluster as mirrored now, not as it stood when the cycle ran",
	}
	byName := map[string]*v1.Node{}
	for _, gvr := range s.resources {
		objs, err := tr.List(gvr, gvr.GroupVersion().WithKind(""), "")
		if err != nil {
			continue
		}
		items, err := meta.ExtractList(objs)
		if err != nil {
			continue
		}
		for _, o := range items {
			switch o := o.(type) {
			case *v1.Node:
				byName[o.Name] = o.DeepCopy()
			case *v1.Pod:
				switch {
				case o.UID == pod.UID:
				case o.Spec.NodeName != "":
					f.Placed = append(f.Placed, o.DeepCopy())
				case o.Status.NominatedNodeName != "":
					f.Nominated = append(f.Nominated, o.DeepCopy())
				}
			default:
				f.Others = append(f.Others, o.DeepCopyObject())
			}
		}
	}
	for i := 0; i < c.NumNodes(); i++ {
		if n := byName[c.NodeName(i)]; n != nil {
			f.Nodes = append(f.Nodes, n)
			delete(byName, n.Name)
		}
	}
	var rest []string
	for name := range byName {
		rest = append(rest, name)
	}
	slices.Sort(rest)
	for _, name := range rest {
		f.Nodes = append(f.Nodes, byName[name])
	}
	if len(f.Nodes) == 0 {
		return nil, fmt.Errorf("the mirrored cluster has no nodes")
	}
	slices.SortStableFunc(f.Placed, func(a, b *v1.Pod) int {
		return cmp.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	return f, nil
}
