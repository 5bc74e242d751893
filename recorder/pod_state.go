package recorder

import "slices"

// Pod states: where a pod stands at the end of a run, named as the
// scheduling queue and the PodScheduled condition name them.
const (
	// PodBound: a cycle bound the pod to Node.
	PodBound = "Bound"
	// PodUnschedulable: its last cycle found no node; Message is the
	// PodScheduled message.
	PodUnschedulable = "Unschedulable"
	// PodNominated: its last cycle preempted other pods and nominated Node;
	// the pod waits for them to leave.
	PodNominated = "Nominated"
	// PodError: its last cycle ended in an error.
	PodError = "Error"
	// PodGated: PreEnqueue held it back (scheduling gates); it never got a cycle.
	PodGated = "Gated"
	// PodNoProfile: no profile serves its schedulerName; this scheduler
	// never takes it.
	PodNoProfile = "NoProfile"
	// PodNotAttempted: it got no cycle, for no reason schedscope can name.
	PodNotAttempted = "NotAttempted"
)

// PodState is where one pod stands, with the message a user would read in
// kubectl describe and the cycles it got.
type PodState struct {
	Pod   PodRef `json:"pod"`
	State string `json:"state"`
	Node  string `json:"node,omitempty"`
	// Reason is the PodScheduled condition's reason, when it has one.
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	// Hint says in plain words what would let the pod be scheduled, for
	// pods that were never attempted.
	Hint string `json:"hint,omitempty"`
	// Seqs are the pod's cycles, in order.
	Seqs []int `json:"seqs"`
}

// PodStates gives every pod that had a cycle its state from its last cycle,
// in order of first cycle, followed by the pods that never had one.
func PodStates(cycles []*Cycle, never []PodState) []PodState {
	byPod := map[string]*PodState{}
	var order []string
	last := map[string]*Cycle{}
	for _, c := range cycles {
		k := c.Pod.Key()
		st := byPod[k]
		if st == nil {
			st = &PodState{Pod: PodRef{Namespace: c.Pod.Namespace, Name: c.Pod.Name, UID: c.Pod.UID, Priority: c.Pod.Priority}}
			byPod[k] = st
			order = append(order, k)
		}
		st.Seqs = append(st.Seqs, c.Seq)
		if l := last[k]; l == nil || c.Seq >= l.Seq {
			last[k] = c
		}
	}
	out := make([]PodState, 0, len(order)+len(never))
	for _, k := range order {
		st, c := byPod[k], last[k]
		slices.Sort(st.Seqs)
		switch o := c.Outcome; {
		case o.Result == ResultBound:
			st.State, st.Node = PodBound, o.Node
		case o.NominatedNode != "":
			st.State, st.Node, st.Reason, st.Message = PodNominated, o.NominatedNode, o.Reason, o.Message
		case o.Result == ResultError:
			st.State, st.Reason, st.Message = PodError, o.Reason, o.Message
		default:
			st.State, st.Reason, st.Message = PodUnschedulable, o.Reason, o.Message
		}
		out = append(out, *st)
	}
	for _, n := range never {
		if _, ok := byPod[n.Pod.Key()]; ok {
			continue
		}
		n.Seqs = []int{}
		out = append(out, n)
	}
	return out
}
