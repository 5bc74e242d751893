package controllers

// This file is the controllers' one seam to upstream internals: each touch
// names the upstream symbol and the version it was written against
// (k8s.io/kubernetes v1.37.1, client-go v0.37.1).
// TestEveryControllerQueueIsCounted checks each on the pinned versions.

import (
	"fmt"
	"reflect"
	"unsafe"

	"k8s.io/client-go/util/workqueue"
)

// controllerQueues names, by controller, the private work-queue fields the
// run counts (pkg/controller/..., v1.37.1). Each is a
// workqueue.Typed{,Delaying,RateLimiting}Interface[string]; the upstream
// controllers expose no count of their work, and client-go's queue metrics
// provider is taken, once per process, by component-base's Prometheus one.
var controllerQueues = map[string][]string{
	"deployment":              {"queue"},                     // deployment.DeploymentController
	"replicaset":              {"queue"},                     // replicaset.ReplicaSetController
	"replicationcontroller":   {"queue"},                     // replication.ReplicationManager (a ReplicaSetController)
	"statefulset":             {"queue"},                     // statefulset.StatefulSetController
	"job":                     {"queue"},                     // job.Controller
	"daemonset":               {"queue", "nodeUpdateQueue"},  // daemon.DaemonSetsController
	"persistentvolume-binder": {"claimQueue", "volumeQueue"}, // persistentvolume.PersistentVolumeController
	"disruption":              {"queue", "recheckQueue"},     // disruption.DisruptionController
}

// countQueues replaces the named work-queue fields of ctrl (a pointer to an
// upstream controller) with countedQueues over them, before the controller
// runs.
func countQueues(name string, ctrl any, changed func()) ([]*countedQueue, error) {
	v := reflect.ValueOf(ctrl)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, fmt.Errorf("%s controller: unexpected type %T", name, ctrl)
	}
	var out []*countedQueue
	for _, field := range controllerQueues[name] {
		f := v.Elem().FieldByName(field)
		if !f.IsValid() || f.Kind() != reflect.Interface {
			return nil, fmt.Errorf("%s controller (%T) has no work-queue field %q; the pinned Kubernetes changed (see engine/controllers/upstream.go)", name, ctrl, field)
		}
		slot := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
		inner, ok := slot.Interface().(workqueue.TypedInterface[string])
		if !ok || inner == nil {
			return nil, fmt.Errorf("%s controller: field %q holds %s, not a work queue of strings; the pinned Kubernetes changed", name, field, f.Type())
		}
		q := newCountedQueue(name+"/"+field, inner, changed)
		q.interval = syncInterval
		if !reflect.TypeOf(q).AssignableTo(f.Type()) {
			return nil, fmt.Errorf("%s controller: field %q of type %s cannot hold a counted queue", name, field, f.Type())
		}
		slot.Set(reflect.ValueOf(q))
		out = append(out, q)
	}
	return out, nil
}
