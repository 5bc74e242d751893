package engine

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	"github.com/schedscope/schedscope/recorder"
)

// The order in which the pods the controllers make reach the scheduler.
//
// kube-controller-manager makes a workload's pods from several goroutines at
// once (a ReplicaSet's slow-start batch creates them in parallel, and every
// controller runs several workers), so the order in which they reach
// kube-scheduler's queue, and with it which replica lands where, changes from
// run to run. A fixture run picks one order and keeps it: a pod a controller
// makes reaches the scheduler's event handlers once the controllers have
// nothing left to do (controllers.Set.Busy), together with every other pod
// made meanwhile, in arrival order:
//
//  1. the document order of the workload it belongs to (a ReplicaSet's pod
//     by its Deployment), as kubectl apply -f creates documents one after
//     another;
//  2. then its namespace, the node it is made for (a DaemonSet's pod, by
//     its node affinity: in node order) and its name, digits compared as
//     numbers (web-2 before web-10; a StatefulSet's ordinals and an indexed
//     Job's indexes in order; a generated name is drawn from the object,
//     fixture.identities, so replicas alike come in an order of their own).
//
// The controllers see every pod at once, as kube-controller-manager's
// informers do; only the scheduler's handlers wait. A pod held here has been
// handled as far as a settling run counts events: its arrival is what the
// run waits for next (Engine.look).

// arrivals holds the controllers' new pods back from the scheduler's pod
// event handlers until release.
type arrivals struct {
	mu sync.Mutex
	// handlers are the gated handlers, in the order they were registered:
	// the order the informer gives each event to them.
	handlers []*gatedHandler
	// rank orders the pods released together (arrivalRank).
	rank func(*v1.Pod) arrivalRank
}

func newArrivals(rank func(*v1.Pod) arrivalRank) *arrivals {
	return &arrivals{rank: rank}
}

// gate wraps one of the scheduler's pod event handlers.
func (a *arrivals) gate(h cache.ResourceEventHandler) cache.ResourceEventHandler {
	g := &gatedHandler{a: a, h: h, held: map[types.UID]*v1.Pod{}}
	a.mu.Lock()
	a.handlers = append(a.handlers, g)
	a.mu.Unlock()
	return g
}

// release hands every held pod to the handlers that hold it, in arrival
// order, and returns how many pods it released.
func (a *arrivals) release() int {
	if a == nil {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	latest := map[types.UID]*v1.Pod{}
	for _, g := range a.handlers {
		for uid, p := range g.held {
			latest[uid] = p
		}
	}
	if len(latest) == 0 {
		return 0
	}
	type ranked struct {
		uid  types.UID
		rank arrivalRank
	}
	order := make([]ranked, 0, len(latest))
	for uid, p := range latest {
		order = append(order, ranked{uid, a.rank(p)})
	}
	slices.SortFunc(order, func(x, y ranked) int { return x.rank.compare(y.rank) })
	for _, r := range order {
		for _, g := range a.handlers {
			if p, ok := g.held[r.uid]; ok {
				delete(g.held, r.uid)
				g.h.OnAdd(p, false)
			}
		}
	}
	return len(order)
}

// gatedHandler is one of the scheduler's pod event handlers behind arrivals.
type gatedHandler struct {
	a *arrivals
	h cache.ResourceEventHandler
	// held are the pods it holds, as they last stood (under a.mu).
	held map[types.UID]*v1.Pod
}

// holds says whether p is a pod to hold: not yet bound, and made by a
// controller.
func holds(p *v1.Pod) bool {
	return p.Spec.NodeName == "" && metav1.GetControllerOf(p) != nil
}

func (g *gatedHandler) OnAdd(obj interface{}, isInInitialList bool) {
	g.a.mu.Lock()
	defer g.a.mu.Unlock()
	if p, ok := obj.(*v1.Pod); ok && !isInInitialList && holds(p) {
		g.held[p.UID] = p
		return
	}
	g.h.OnAdd(obj, isInInitialList)
}

func (g *gatedHandler) OnUpdate(oldObj, newObj interface{}) {
	g.a.mu.Lock()
	defer g.a.mu.Unlock()
	if p, ok := newObj.(*v1.Pod); ok {
		if _, held := g.held[p.UID]; held {
			// Still held: it arrives as it stands when released.
			g.held[p.UID] = p
			return
		}
	}
	g.h.OnUpdate(oldObj, newObj)
}

func (g *gatedHandler) OnDelete(obj interface{}) {
	g.a.mu.Lock()
	defer g.a.mu.Unlock()
	var uid types.UID
	switch o := obj.(type) {
	case *v1.Pod:
		uid = o.UID
	case cache.DeletedFinalStateUnknown:
		if p, ok := o.Obj.(*v1.Pod); ok {
			uid = p.UID
		}
	}
	if _, held := g.held[uid]; held && uid != "" {
		// Gone before the scheduler saw it.
		delete(g.held, uid)
		return
	}
	g.h.OnDelete(obj)
}

// arrivalRank is where a pod stands among the pods released together.
type arrivalRank struct {
	document  int // of its workload in the fixture; past the last when none
	namespace string
	node      string // the one node its affinity allows, if one
	name      string
}

func (r arrivalRank) compare(o arrivalRank) int {
	if c := cmp.Compare(r.document, o.document); c != 0 {
		return c
	}
	if c := strings.Compare(r.namespace, o.namespace); c != 0 {
		return c
	}
	if c := naturalCompare(r.node, o.node); c != 0 {
		return c
	}
	return naturalCompare(r.name, o.name)
}

// madeFor is the one node p's required node affinity allows by name, as
// the DaemonSet controller writes it (a matchFields term on metadata.name),
// or "".
func madeFor(p *v1.Pod) string {
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, term := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range term.MatchFields {
			if f.Key == metav1.ObjectNameField && f.Operator == v1.NodeSelectorOpIn && len(f.Values) == 1 {
				return f.Values[0]
			}
		}
	}
	return ""
}

// arrivalRank ranks p by its workload's document.
func (e *Engine) arrivalRank(p *v1.Pod) arrivalRank {
	r := arrivalRank{document: len(e.workloadDocs), namespace: p.Namespace, node: madeFor(p), name: p.Name}
	if o := e.withOwner(recorder.PodRef{}, p).Owner; o != nil {
		if i, ok := e.workloadDocs[o.Kind+"/"+p.Namespace+"/"+o.Name]; ok {
			r.document = i
		}
	}
	return r
}

// naturalCompare compares two names with their runs of digits compared as
// numbers: web-2 before web-10.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := leadingDigits(a), leadingDigits(b)
		if da != "" && db != "" {
			na, nb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			if c := cmp.Compare(len(da), len(db)); c != 0 {
				return c
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// leadingDigits is the run of ASCII digits s begins with.
func leadingDigits(s string) string {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return s[:i]
}
