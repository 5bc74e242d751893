package recorder

import (
	"errors"
	"strconv"
	"strings"
)

// A Change is one edit of the state a recorded cycle started from, as plain
// data: whatif's flags, the TUI's keys and suggest make them, the engine
// applies them to a fork of the cycle and re-runs it, narrate words them.
// Each kind is one type below; Kind names it in JSON and in errors.
//
// A kind is added by a type here, its words in narrate.Change, its flag in
// cmd's changeFlags (which also writes it back as whatif flags), and how
// the engine applies it (engine/whatif_change.go).
type Change interface {
	Kind() string
}

// PatchPod changes the pod with a strategic-merge patch (JSON or YAML, as
// kubectl patch takes it). Why, when set, says in words what the patch does
// (suggest makes patches in code). Pod names the pod to patch (namespace/name,
// or a name) when the change is to a whole run, as a pod group's member;
// empty, it is the pod of the cycle re-run.
type PatchPod struct {
	Pod   string `json:"pod,omitempty"`
	Patch string `json:"patch"`
	Why   string `json:"why,omitempty"`
}

// ReplacePod replaces the pod with a whole Pod manifest; Source names it
// (a file) in errors and words.
type ReplacePod struct {
	Manifest []byte `json:"manifest"`
	Source   string `json:"source"`
}

// EditPod is an edit of the pod's manifest as a user was shown it (the
// part the scheduler reads): what the edit changed is applied to the whole
// pod, as kubectl edit applies one. Source names the edit in errors.
type EditPod struct {
	Shown  []byte `json:"shown"`
	Edited []byte `json:"edited"`
	Source string `json:"source"`
}

// PatchNode changes node Node with a strategic-merge patch; Why, when set,
// says in words what the patch does.
type PatchNode struct {
	Node  string `json:"node"`
	Patch string `json:"patch"`
	Why   string `json:"why,omitempty"`
}

// EditNode is an edit of node Node's manifest as a user was shown it, as
// EditPod is of the pod's.
type EditNode struct {
	Node   string `json:"node"`
	Shown  []byte `json:"shown"`
	Edited []byte `json:"edited"`
	Source string `json:"source"`
}

// RemoveNode deletes node Node and the pods on it.
type RemoveNode struct {
	Node string `json:"node"`
}

// AddNode adds a node from a Node manifest; Source names it.
type AddNode struct {
	Manifest []byte `json:"manifest"`
	Source   string `json:"source"`
}

// CopyNode adds an empty node Node like node From (its labels, taints and
// capacity, its hostname label renamed): "one more node like From".
type CopyNode struct {
	From string `json:"from"`
	Node string `json:"node"`
}

// Evict deletes pods Pods (each namespace/name, or a name) before the
// cycle.
type Evict struct {
	Pods []string `json:"pods"`
}

// UseConfig schedules with another KubeSchedulerConfiguration, read from
// Path; Data is the file as read.
type UseConfig struct {
	Path string `json:"path"`
	Data []byte `json:"-"`
}

// SetWeight sets score plugin Plugin's weight in the pod's profile.
type SetWeight struct {
	Plugin string `json:"plugin"`
	Weight int32  `json:"weight"`
}

// ParseSetWeight reads PLUGIN=N, the one form of a weight that the
// --set-weight flag and the TUI's what-if prompt take.
func ParseSetWeight(s string) (SetWeight, error) {
	name, val, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	w, err := strconv.ParseInt(strings.TrimSpace(val), 10, 32)
	if !ok || name == "" || err != nil {
		return SetWeight{}, errors.New("want PLUGIN=N, e.g. NodeResourcesFit=5")
	}
	return SetWeight{Plugin: name, Weight: int32(w)}, nil
}

// Disable disables plugin Plugin at extension point Point ("filter",
// "score", …), or at every point when Point is empty.
type Disable struct {
	Plugin string `json:"plugin"`
	Point  string `json:"point,omitempty"`
}

// ParseDisable reads PLUGIN[:POINT], the one form of a plugin to disable
// that the --disable flag and the TUI's what-if prompt take.
func ParseDisable(s string) (Disable, error) {
	name, point, _ := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if name == "" {
		return Disable{}, errors.New("want PLUGIN or PLUGIN:POINT, e.g. NodeResourcesFit:score")
	}
	return Disable{Plugin: name, Point: strings.TrimSpace(point)}, nil
}

// Enable enables in-tree plugin Plugin at extension point Point.
type Enable struct {
	Plugin string `json:"plugin"`
	Point  string `json:"point"`
}

// SetPercentage sets the pod's profile's percentageOfNodesToScore.
type SetPercentage struct {
	Percent int32 `json:"percent"`
}

// SetMinCount sets the gang's minCount of the pod group whose run is
// re-run (whatif --pod-group).
type SetMinCount struct {
	MinCount int32 `json:"minCount"`
}

func (PatchPod) Kind() string      { return "patch-pod" }
func (ReplacePod) Kind() string    { return "replace-pod" }
func (EditPod) Kind() string       { return "edit-pod" }
func (PatchNode) Kind() string     { return "patch-node" }
func (EditNode) Kind() string      { return "edit-node" }
func (RemoveNode) Kind() string    { return "remove-node" }
func (AddNode) Kind() string       { return "add-node" }
func (CopyNode) Kind() string      { return "copy-node" }
func (Evict) Kind() string         { return "evict" }
func (UseConfig) Kind() string     { return "config" }
func (SetWeight) Kind() string     { return "set-weight" }
func (Disable) Kind() string       { return "disable" }
func (Enable) Kind() string        { return "enable" }
func (SetPercentage) Kind() string { return "percentage-of-nodes-to-score" }
func (SetMinCount) Kind() string   { return "min-count" }

// PodOnly reports whether changes touch the pod alone (a fork they make
// holds the same cluster).
func PodOnly(changes []Change) bool {
	for _, c := range changes {
		switch c.(type) {
		case PatchPod:
			if c.(PatchPod).Pod != "" {
				return false
			}
		case ReplacePod, EditPod:
		default:
			return false
		}
	}
	return len(changes) > 0
}

// WithChange adds ch to the changes an earlier what-if made, as the
// debugger's what-ifs (of a pod and of a pod group) stack them: a second
// change of one thing replaces the first (an edit of the pod, an edit of
// one node, a patch of one pod, a weight of one plugin, the gang's
// minCount, percentageOfNodesToScore), and disabling a plugin the changes
// already disable enables it again (a toggle).
func WithChange(base []Change, ch Change) []Change {
	var out []Change
	toggled := false
	for _, b := range base {
		if d, ok := ch.(Disable); ok && b == Change(d) {
			toggled = true
			continue
		}
		if replaces(ch, b) {
			continue
		}
		out = append(out, b)
	}
	if toggled {
		return out
	}
	return append(out, ch)
}

// replaces says whether ch takes b's place (WithChange).
func replaces(ch, b Change) bool {
	switch ch := ch.(type) {
	case EditPod:
		_, ok := b.(EditPod)
		return ok
	case EditNode:
		bn, ok := b.(EditNode)
		return ok && bn.Node == ch.Node
	case PatchPod:
		bp, ok := b.(PatchPod)
		return ok && bp.Pod == ch.Pod
	case SetWeight:
		bw, ok := b.(SetWeight)
		return ok && bw.Plugin == ch.Plugin
	case SetMinCount:
		_, ok := b.(SetMinCount)
		return ok
	case SetPercentage:
		_, ok := b.(SetPercentage)
		return ok
	}
	return false
}
