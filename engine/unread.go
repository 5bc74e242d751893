package engine

import (
	"strings"

	v1 "k8s.io/api/core/v1"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
)

// admissionKinds are the kinds the API server's admission plugins read when
// a fixture's objects are created (engine/fixture/admission_chain.go), read
// whether or not the scheduler's informers are.
var admissionKinds = map[string]bool{
	"Namespace": true, "PriorityClass": true, "LimitRange": true, "RuntimeClass": true, "StorageClass": true,
}

// Unread lists the kinds of fx's objects that nothing in the run acts on as
// a cluster would, in the order each first appears, asking the informers of
// the scheduler and the controllers beside it what they read. A workload whose pods the fixture holds (a snapshot's
// ReplicaSet with its pods, by their owner references) is in use.
func (e *Engine) Unread(fx *fixture.Fixture) ([]*recorder.Unused, error) {
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
	var out []*recorder.Unused
	at := map[string]*recorder.Unused{}
	for _, d := range fx.Documents {
		kind := fixture.KindName(d.Object)
		m, err := meta.Accessor(d.Object) // a custom resource's too
		if err != nil {
			return nil, err
		}
		ns, name := m.GetNamespace(), m.GetName()
		if u, ok := at[kind]; ok {
			if u != nil && !(fixture.IsWorkload(kind) && owners[kind+"/"+ns+"/"+name]) {
				u.Count++
			}
			continue
		}
		gvr, err := gvrOf(d.Object)
		if err != nil {
			return nil, err
		}
		var why recorder.UnusedReason
		switch {
		case isRead[gvr] || admissionKinds[kind]:
		case fixture.IsWorkload(kind) && owners[kind+"/"+ns+"/"+name]:
			continue // its pods are in the fixture; a later one may not be
		case fixture.IsWorkload(kind):
			why = recorder.UnusedNoController
		default:
			why = recorder.UnusedNotRead
		}
		if why == "" {
			at[kind] = nil
			continue
		}
		u := &recorder.Unused{Kind: kind, Name: strings.TrimPrefix(ns+"/"+name, "/"), Source: d.Source, Count: 1, Reason: why}
		at[kind] = u
		out = append(out, u)
	}
	return out, nil
}
