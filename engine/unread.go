package engine

import (
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/schedscope/schedscope/engine/fixture"
)

// An UnreadKind is a kind of object a fixture holds that nothing in the run
// acts on as a cluster would: objects the scheduler's informers do not read
// and admission does not consult, workloads whose pods no controller makes,
// and disruption budgets whose status no controller computes. It names the
// first such object and where it is, and says why.
type UnreadKind struct {
	Kind string
	// Name is the first such object's namespace/name, Source where it is.
	Name, Source string
	// Count is how many objects of the kind it stands for.
	Count int
	// Why says what the run does not do with the kind.
	Why string
}

func (u *UnreadKind) Error() string {
	more := ""
	if u.Count > 1 {
		more = fmt.Sprintf(" and %d more", u.Count-1)
	}
	return fmt.Sprintf("%s: %s %s%s: %s", u.Source, u.Kind, u.Name, more, u.Why)
}

// admissionKinds are the kinds the API server's admission plugins read when
// a fixture's objects are created (engine/fixture/admission_chain.go), read
// whether or not the scheduler's informers are.
var admissionKinds = map[string]bool{
	"Namespace": true, "PriorityClass": true, "LimitRange": true, "RuntimeClass": true, "StorageClass": true,
}

// Unread lists the kinds of fx's objects that nothing in the run acts on,
// in the order each first appears, asking the scheduler's informers what
// they read. A workload whose pods the fixture holds (a snapshot's
// ReplicaSet with its pods, by their owner references) is in use.
func (e *Engine) Unread(fx *fixture.Fixture) ([]*UnreadKind, error) {
	read, err := e.ReadResources()
	if err != nil {
		return nil, err
	}
	isRead := map[schema.GroupVersionResource]bool{}
	for _, gvr := range read {
		isRead[gvr] = true
	}
	owners := map[string]bool{} // kind/namespace/name of pods' owners
	for _, d := range fx.Documents {
		if p, ok := d.Object.(*v1.Pod); ok {
			for _, ref := range p.OwnerReferences {
				owners[ref.Kind+"/"+p.Namespace+"/"+ref.Name] = true
			}
		}
	}
	var out []*UnreadKind
	at := map[string]*UnreadKind{}
	for _, d := range fx.Documents {
		kind := fixture.KindName(d.Object)
		m, err := fixture.ObjectMeta(d.Object)
		if err != nil {
			return nil, err
		}
		if u, ok := at[kind]; ok {
			if u != nil && !(fixture.IsWorkload(kind) && owners[kind+"/"+m.Namespace+"/"+m.Name]) {
				u.Count++
			}
			continue
		}
		gvr, err := gvrOf(d.Object)
		if err != nil {
			return nil, err
		}
		var why string
		readKind := isRead[gvr] || admissionKinds[kind]
		switch {
		case fixture.IsWorkload(kind) && owners[kind+"/"+m.Namespace+"/"+m.Name]:
			continue // its pods are in the fixture; a later one may not be
		case fixture.IsWorkload(kind) && readKind:
			why = "none of its pods is scheduled: the scheduler reads it (default topology spreading counts the pods it owns), but schedscope runs no " + kind + " controller to make them; list its pods as Pods, or snapshot a cluster that runs it"
		case fixture.IsWorkload(kind):
			why = "none of its pods is scheduled: schedscope runs no " + kind + " controller to make them; list its pods as Pods, or snapshot a cluster that runs it"
		case kind == "PodDisruptionBudget":
			why = "its status is taken as written (disruptionsAllowed 0 when unset): schedscope runs no disruption controller, so preemption counts every pod it covers as a violation unless status.disruptionsAllowed says otherwise"
		case !readKind:
			why = "not read by the scheduler or admission; ignored"
		}
		if why == "" {
			at[kind] = nil
			continue
		}
		u := &UnreadKind{Kind: kind, Name: strings.TrimPrefix(m.Namespace+"/"+m.Name, "/"), Source: d.Source, Count: 1, Why: why}
		at[kind] = u
		out = append(out, u)
	}
	return out, nil
}
