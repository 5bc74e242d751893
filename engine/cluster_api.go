package engine

import (
	"reflect"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	clienttesting "k8s.io/client-go/testing"

	"github.com/schedscope/schedscope/engine/fixture"
)

// What the in-memory API server does, beyond storing objects, for the
// controllers a fixture run has beside the scheduler (engine/controllers):
// a new object a controller writes goes through the API server's create
// path (fixture.Admitter); a status write changes only the status; a spec
// change moves the object's generation on; events are accepted and dropped
// (nothing in a run reads them).

func init() {
	// A controller writes in bursts (a ReplicaSet of 500 creates them 500
	// at once); the in-memory API server's watches panic when their buffer
	// (100 events) overflows before the informer reads it.
	if watch.DefaultChanSize < 1<<12 {
		watch.DefaultChanSize = 1 << 12
	}
}

// dropEvents accepts a write of an Event and stores nothing.
func dropEvents(action clienttesting.Action) (bool, runtime.Object, error) {
	if a, ok := action.(clienttesting.CreateAction); ok {
		return true, a.GetObject(), nil
	}
	if a, ok := action.(clienttesting.UpdateAction); ok {
		return true, a.GetObject(), nil
	}
	return true, &v1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: action.GetNamespace()}}, nil
}

// admitReactor runs the API server's create path on an object a controller
// creates. The fixture's own objects, already admitted, carry a UID and pass
// as they are.
func admitReactor(a *fixture.Admitter) clienttesting.ReactionFunc {
	return func(action clienttesting.Action) (bool, runtime.Object, error) {
		create, ok := action.(clienttesting.CreateAction)
		if !ok || action.GetSubresource() != "" {
			return false, nil, nil
		}
		obj := create.GetObject()
		m, err := metaOf(obj)
		if err != nil || m.UID != "" {
			return false, nil, nil
		}
		if err := a.Create(obj, action.GetNamespace(), time.Now()); err != nil {
			return true, nil, err
		}
		return false, nil, nil
	}
}

// generationGroups are the groups whose objects' controllers read
// metadata.generation against status.observedGeneration.
var generationGroups = map[string]bool{"apps": true, "batch": true, "policy": true}

// statusKept are the resources, beyond those groups, whose controllers
// update the object and its status apart (the persistent-volume binder).
var statusKept = map[string]bool{"persistentvolumes": true, "persistentvolumeclaims": true}

// stepManager marks the update a timeline's step makes: the fixture states
// the object whole, status included, as its controller would write it.
const stepManager = "schedscope-fixture-step"

// updateReactor does what the kind's update strategies do to a write the
// controllers and the kubelet make: a write to the status subresource keeps
// the stored spec and metadata; a write to the object keeps the stored
// status, and moves a workload's or a budget's generation on when its spec
// changes.
func (e *Engine) updateReactor(action clienttesting.Action) (bool, runtime.Object, error) {
	update, ok := action.(clienttesting.UpdateAction)
	if !ok {
		return false, nil, nil
	}
	gvr := action.GetResource()
	status := action.GetSubresource() == "status"
	step := false
	if u, ok := action.(clienttesting.UpdateActionImpl); ok {
		step = u.UpdateOptions.FieldManager == stepManager
	}
	if !status && !generationGroups[gvr.Group] && !statusKept[gvr.Resource] {
		return false, nil, nil
	}
	obj := update.GetObject()
	m, err := metaOf(obj)
	if err != nil {
		return false, nil, nil
	}
	cur, err := e.store.Get(gvr, m.Namespace, m.Name)
	if err != nil {
		return false, nil, nil // the update reports it
	}
	cm, err := metaOf(cur)
	if err != nil {
		return false, nil, nil
	}
	newSpec := reflect.ValueOf(obj).Elem().FieldByName("Spec")
	curSpec := reflect.ValueOf(cur).Elem().FieldByName("Spec")
	if !newSpec.IsValid() || !curSpec.IsValid() || !newSpec.CanSet() || newSpec.Type() != curSpec.Type() {
		return false, nil, nil
	}
	switch {
	case status:
		newSpec.Set(curSpec)
		// What every status strategy keeps (the Deployment's lets the
		// controller write its revision annotation with the status); a
		// write from a stale copy is refused as a conflict.
		m.Generation, m.Labels = cm.Generation, cm.Labels
	case !generationGroups[gvr.Group]:
	case !equality.Semantic.DeepEqual(newSpec.Interface(), curSpec.Interface()):
		m.Generation = cm.Generation + 1
	default:
		m.Generation = cm.Generation
	}
	if !status && !step {
		newStatus := reflect.ValueOf(obj).Elem().FieldByName("Status")
		curStatus := reflect.ValueOf(cur).Elem().FieldByName("Status")
		if newStatus.IsValid() && curStatus.IsValid() && newStatus.CanSet() && newStatus.Type() == curStatus.Type() {
			newStatus.Set(curStatus)
		}
	}
	return false, nil, nil
}
