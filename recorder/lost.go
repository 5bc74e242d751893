package recorder

import (
	"strconv"
	"strings"
)

// A Lost object is what a run lost that a cluster should have had: a
// workload whose controller could not make its pods, a claim that could not
// be provisioned, a budget the disruption controller could not compute.
// A run that loses one has failed (explain --exit-code), however its pods
// did.
type Lost struct {
	Kind, Namespace, Name string
	// What is what was lost ("2 of 5 pod(s) not made").
	What string
	// Cause is the error upstream code gave for it, when one names it.
	Cause string
}

// Lost lists what the run lost, in the order the state lists it. problems
// are the errors upstream code logged during the run: the last one naming
// an object (namespace/name, or namespace/name- as its ReplicaSet's or
// pods' names begin) is its cause.
func (s *ClusterState) Lost(problems []string) []Lost {
	if s == nil {
		return nil
	}
	var out []Lost
	cause := func(ns, name string) string {
		for i := len(problems) - 1; i >= 0; i-- {
			p := problems[i]
			if strings.Contains(p, ns+"/"+name+`"`) || strings.Contains(p, ns+"/"+name+"-") || strings.Contains(p, ns+"/"+name+" ") {
				return p
			}
		}
		return ""
	}
	for _, w := range s.Workloads {
		missing := int(w.Desired) - len(w.Pods)
		if missing <= 0 {
			continue
		}
		// A StatefulSet makes its next pod once the one before is ready:
		// a pending pod, not its controller, holds the rest back.
		c := cause(w.Namespace, w.Name)
		if c == "" && w.Pending() > 0 {
			continue
		}
		out = append(out, Lost{Kind: w.Kind, Namespace: w.Namespace, Name: w.Name, What: strconv.Itoa(missing) + " of " + strconv.Itoa(int(w.Desired)) + " pod(s) not made", Cause: c})
	}
	for _, b := range s.Budgets {
		if b.Error != "" {
			out = append(out, Lost{Kind: "PodDisruptionBudget", Namespace: b.Namespace, Name: b.Name, What: "not computed", Cause: b.Error})
		}
	}
	for _, c := range s.Claims {
		if c.Phase == "Pending" && c.SelectedNode != "" {
			out = append(out, Lost{Kind: "PersistentVolumeClaim", Namespace: c.Namespace, Name: c.Name, What: "not provisioned on " + c.SelectedNode, Cause: cause(c.Namespace, c.Name)})
		}
	}
	return out
}
