package narrate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/schedscope/schedscope/recorder"
)

// Workload words where a workload's pods went, on one line: "Deployment
// default/web: 2 of 4 pods placed (node-a, node-b); 2 pending".
func Workload(w recorder.WorkloadState) string {
	placed := len(w.Pods) - w.Pending()
	count := map[string]int{}
	for _, p := range w.Pods {
		if p.Node != "" {
			count[p.Node]++
		}
	}
	nodes := make([]string, 0, len(count))
	for n := range count {
		nodes = append(nodes, n)
	}
	slices.SortFunc(nodes, func(a, b string) int {
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	const most = 8
	var on []string
	for i, n := range nodes {
		if i == most {
			on = append(on, fmt.Sprintf("%d more nodes", len(nodes)-most))
			break
		}
		if count[n] > 1 {
			n += fmt.Sprintf(" ×%d", count[n])
		}
		on = append(on, n)
	}
	s := fmt.Sprintf("%s %s/%s: %d of %d pod(s) placed", w.Kind, w.Namespace, w.Name, placed, w.Desired)
	if len(on) > 0 {
		s += " (" + strings.Join(on, ", ") + ")"
	}
	if n := w.Pending(); n > 0 {
		s += fmt.Sprintf("; %d pending", n)
	}
	if extra := len(w.Pods) - int(w.Desired); extra > 0 {
		s += fmt.Sprintf("; %d more pod(s) than wanted", extra)
	} else if len(w.Pods) < int(w.Desired) {
		s += fmt.Sprintf("; %d not made", int(w.Desired)-len(w.Pods))
	}
	return s
}

// Budget words a disruption budget's status as the disruption controller
// computed it.
func Budget(b recorder.BudgetState) string {
	return fmt.Sprintf("PodDisruptionBudget %s/%s: %d disruption(s) allowed (%d healthy, %d desired healthy, %d expected)",
		b.Namespace, b.Name, b.DisruptionsAllowed, b.CurrentHealthy, b.DesiredHealthy, b.ExpectedPods)
}

// Claim words a volume claim's phase and what it is bound to.
func Claim(c recorder.ClaimState) string {
	s := fmt.Sprintf("PersistentVolumeClaim %s/%s: %s", c.Namespace, c.Name, c.Phase)
	if c.Volume != "" {
		s += " to " + c.Volume
	}
	var more []string
	if c.StorageClass != "" {
		more = append(more, "class "+c.StorageClass)
	}
	if c.SelectedNode != "" {
		more = append(more, "selected node "+c.SelectedNode)
	}
	if len(more) > 0 {
		s += " (" + strings.Join(more, ", ") + ")"
	}
	return s
}

// Lost words what a run lost, as one warning line: "Deployment shop/web: 2
// of 5 pod(s) not made: <the controller's error>".
func Lost(l recorder.Lost) string {
	s := fmt.Sprintf("%s %s/%s: %s", l.Kind, l.Namespace, l.Name, l.What)
	if l.Cause != "" {
		s += ": " + l.Cause
	} else {
		s += " (no controller said why)"
	}
	return s
}
