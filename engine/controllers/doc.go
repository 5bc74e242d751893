// Package controllers is the cluster a fixture run has beside the
// scheduler: kube-controller-manager's controllers that shape what the
// scheduler is given (Deployment, ReplicaSet, ReplicationController,
// StatefulSet, Job, DaemonSet, disruption, pod garbage collection, the
// garbage collector, the persistent-volume binder), run from upstream code and constructed as
// kube-controller-manager constructs them, and two simulated parts: a
// kubelet and a volume provisioner.
//
// The engine hands it what it runs on (Deps: the in-memory API server's
// client, the run's informer factory, the function that wakes a settling
// run); it must not import the engine. Set.Busy tells the engine's settle
// code whether any controller still has work.
//
// Where things are: controllers.go constructs and runs the set (Parts
// lists it for the README); queue.go counts a controller's work queue;
// upstream.go swaps the upstream controllers' private queues for counted
// ones (the one seam to their internals); garbage_collector.go gives the
// garbage collector what it asks of an API server (discovery, a metadata
// client) and tells when it has work; simulated_kubelet.go and
// simulated_provisioner.go are the simulations, each saying what it does.
package controllers
