package engine

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"

	"github.com/schedscope/schedscope/engine/fixture"
)

// metaOf returns an object's metadata, to be changed in place.
var metaOf = fixture.ObjectMeta

// apply makes a step's write to the in-memory API server, through the
// clientset's reactors as every other write (each is counted, and an
// update gets a new resourceVersion).
func (e *Engine) apply(s fixture.Step) error {
	gvks, _, err := clientgoscheme.Scheme.ObjectKinds(s.Object)
	if err != nil || len(gvks) == 0 {
		return fmt.Errorf("%s: unknown kind %T", s.Source, s.Object)
	}
	gvr, _ := meta.UnsafeGuessKindToResource(gvks[0])
	m, err := metaOf(s.Object)
	if err != nil {
		return err
	}
	var action clienttesting.Action
	switch s.Op {
	case fixture.StepCreate:
		action = clienttesting.NewCreateAction(gvr, m.Namespace, s.Object.DeepCopyObject())
	case fixture.StepReplace:
		// The update goes on from the stored object's resourceVersion, so
		// that a second replacement is newer than the first for caches that
		// compare versions (the volume binder's assume cache).
		obj := s.Object.DeepCopyObject()
		cur, err := e.store.Get(gvr, m.Namespace, m.Name)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", s.Source, s, err)
		}
		if cm, err := metaOf(cur); err == nil {
			om, _ := metaOf(obj)
			om.ResourceVersion = cm.ResourceVersion
		}
		update := clienttesting.NewUpdateAction(gvr, m.Namespace, obj)
		update.UpdateOptions.FieldManager = stepManager
		action = update
	case fixture.StepDelete:
		action = clienttesting.NewDeleteAction(gvr, m.Namespace, m.Name)
	default:
		return fmt.Errorf("%s: unknown step %q", s.Source, s.Op)
	}
	if _, err := e.client.Invokes(action, nil); err != nil {
		return fmt.Errorf("%s: %s: %w", s.Source, s, err)
	}
	if e.admitter != nil {
		if s.Op == fixture.StepDelete {
			e.admitter.Forget(s.Object)
		} else {
			e.admitter.Known(s.Object)
		}
	}
	e.groupsSeeStep()
	return nil
}
