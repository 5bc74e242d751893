package recorder

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/schedscope/schedscope/recorder/input"
)

// A pod a controller makes has a generated name, which a change to the
// fixture may change (fixture.identities). A handle names it by its workload
// instead, in every command that takes a pod:
//
//	deploy/web          the workload's first replica left without a node
//	                    (its first replica when every one was placed)
//	deploy/web#3        its third replica, in the order the replicas first
//	                    reached the scheduler
//	deploy/shop/web#3   the same, in namespace shop
//
// The kinds are WorkloadKinds'. A pod's own name (name or namespace/name)
// is taken as it is.

// PodHandle is a workload handle read by ParsePodHandle.
type PodHandle struct {
	Kind, Namespace, Name string
	// Replica is the replica asked for, from 1; 0 for the first left
	// without a node.
	Replica int
}

// String writes h back as a user types it.
func (h PodHandle) String() string {
	short := h.Kind
	for k, kind := range WorkloadKinds {
		if kind == h.Kind && (short == h.Kind || len(k) < len(short)) {
			short = k
		}
	}
	s := short + "/"
	if h.Namespace != "default" {
		s += h.Namespace + "/"
	}
	s += h.Name
	if h.Replica > 0 {
		s += "#" + strconv.Itoa(h.Replica)
	}
	return s
}

// ParsePodHandle reads KIND/[NAMESPACE/]NAME[#N]; ok is false for anything
// else (a pod's own name), and err says what is wrong with a handle that
// names no replica (#0, #x).
func ParsePodHandle(s string) (h PodHandle, ok bool, err error) {
	workload, replica, hasReplica := strings.Cut(s, "#")
	kind, ns, name, ok := ParseWorkload(workload)
	if !ok {
		return PodHandle{}, false, nil
	}
	h = PodHandle{Kind: kind, Namespace: ns, Name: name}
	if hasReplica {
		n, err := strconv.Atoi(replica)
		if err != nil || n < 1 {
			return PodHandle{}, true, fmt.Errorf("%q: want a replica number from 1 after #, as in %s#2", s, workload)
		}
		h.Replica = n
	}
	return h, true, nil
}

// replicas lists the pods of h's workload in the order they first had a
// cycle among cycles (each pod with its cycle's result), and whether each
// one's last cycle placed it.
func (h PodHandle) replicas(cycles iter.Seq2[PodRef, string]) (pods []PodRef, placed map[string]bool) {
	placed = map[string]bool{}
	for pod, result := range cycles {
		o := pod.Owner
		if o == nil || o.Kind != h.Kind || o.Name != h.Name || pod.Namespace != h.Namespace {
			continue
		}
		key := pod.Key()
		if _, seen := placed[key]; !seen {
			pods = append(pods, pod)
		}
		placed[key] = result == ResultBound
	}
	return pods, placed
}

// Resolve names the pod h stands for among a run's cycles (in the order
// they ran), as namespace/name.
func (h PodHandle) Resolve(cycles []*Cycle) (string, error) {
	return h.resolve(func(yield func(PodRef, string) bool) {
		for _, c := range cycles {
			if !yield(c.Pod, c.Outcome.Result) {
				return
			}
		}
	})
}

// ResolveEntries is Resolve over a recording's index entries, in the
// order the cycles ran.
func (h PodHandle) ResolveEntries(entries []CycleEntry) (string, error) {
	return h.resolve(func(yield func(PodRef, string) bool) {
		for _, e := range entries {
			if !yield(e.Pod, e.Result) {
				return
			}
		}
	})
}

func (h PodHandle) resolve(cycles iter.Seq2[PodRef, string]) (string, error) {
	pods, placed := h.replicas(cycles)
	switch {
	case len(pods) == 0:
		var had []PodHandle
		for pod := range cycles {
			if o := pod.Owner; o != nil {
				had = append(had, PodHandle{Kind: o.Kind, Namespace: pod.Namespace, Name: o.Name})
			}
		}
		return "", fmt.Errorf("%s: no pod of %s %s/%s had a scheduling cycle%s", h, h.Kind, h.Namespace, h.Name, DidYouMeanWorkload(h, had))
	case h.Replica > len(pods):
		return "", fmt.Errorf("%s: %s %s/%s has %d replica(s) that had a cycle", h, h.Kind, h.Namespace, h.Name, len(pods))
	case h.Replica > 0:
		return pods[h.Replica-1].Key(), nil
	}
	for _, p := range pods {
		if !placed[p.Key()] {
			return p.Key(), nil
		}
	}
	return pods[0].Key(), nil
}

// DidYouMeanWorkload names, as handles (deploy/checkout), the workloads
// among those given that a mistyped handle h may have meant: those of its
// kind and namespace whose names are a few edits from its name, then
// those of its name of another kind or in another namespace.
func DidYouMeanWorkload(h PodHandle, workloads []PodHandle) string {
	h.Replica = 0
	var names, others []string
	for _, w := range workloads {
		w.Replica = 0
		if _, known := WorkloadKinds[strings.ToLower(w.Kind)]; !known || w == h {
			continue
		}
		switch {
		case w.Kind == h.Kind && w.Namespace == h.Namespace:
			if !slices.Contains(names, w.Name) {
				names = append(names, w.Name)
			}
		case w.Name == h.Name && !slices.Contains(others, w.String()):
			others = append(others, w.String())
		}
	}
	var near []string
	for _, n := range input.Closest(h.Name, names) {
		near = append(near, PodHandle{Kind: h.Kind, Namespace: h.Namespace, Name: n}.String())
	}
	for _, o := range others {
		if !slices.Contains(near, o) {
			near = append(near, o)
		}
	}
	if len(near) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(near[:min(len(near), 3)], " or ") + "?)"
}

// PodHandles gives each pod of a controller that had a cycle its handle
// (deploy/web#3), by namespace/name: what a command printed for the user
// to run next names, so that it still works once the fixture changes.
func PodHandles(cycles []*Cycle) map[string]string {
	out := map[string]string{}
	count := map[string]int{}
	for _, c := range cycles {
		o := c.Pod.Owner
		key := c.Pod.Key()
		if o == nil || out[key] != "" {
			continue
		}
		if _, ok := WorkloadKinds[strings.ToLower(o.Kind)]; !ok {
			continue
		}
		w := o.Kind + "/" + c.Pod.Namespace + "/" + o.Name
		count[w]++
		out[key] = PodHandle{Kind: o.Kind, Namespace: c.Pod.Namespace, Name: o.Name, Replica: count[w]}.String()
	}
	return out
}

// WorkloadKinds are the names a command takes for a workload's kind, as
// kubectl spells them (deploy/web, sts/db, ...).
var WorkloadKinds = map[string]string{
	"deploy": "Deployment", "deployment": "Deployment", "deployments": "Deployment",
	"rs": "ReplicaSet", "replicaset": "ReplicaSet", "replicasets": "ReplicaSet",
	"sts": "StatefulSet", "statefulset": "StatefulSet", "statefulsets": "StatefulSet",
	"ds": "DaemonSet", "daemonset": "DaemonSet", "daemonsets": "DaemonSet",
	"job": "Job", "jobs": "Job",
	"rc": "ReplicationController", "replicationcontroller": "ReplicationController", "replicationcontrollers": "ReplicationController",
}

// ParseWorkload reads KIND/NAME or KIND/NAMESPACE/NAME naming a workload
// (namespace default).
func ParseWorkload(s string) (kind, namespace, name string, ok bool) {
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return "", "", "", false
	}
	kind, ok = WorkloadKinds[strings.ToLower(parts[0])]
	namespace, name = "default", parts[len(parts)-1]
	if len(parts) == 3 {
		namespace = parts[1]
	}
	return kind, namespace, name, ok && name != "" && namespace != ""
}
