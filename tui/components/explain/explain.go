// Package explain is the explain panel: what a phase of the scheduling
// cycle does and what the selected plugin checks, in plain words, with the
// Policy-era predicate and priority names older articles use.
package explain

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schedscope/schedscope/tui/layout"
	"github.com/schedscope/schedscope/tui/theme"
)

// PluginDoc says in plain words what a plugin checks, and which names older
// articles (the Policy-era predicates and priorities) used for the same check.
type PluginDoc struct {
	What   string
	Legacy string
}

// PluginDocs describes an in-tree plugin, ok false for any other. The wording is ours; the behaviour
// follows pkg/scheduler/framework/plugins.
func PluginDocs(name string) (PluginDoc, bool) {
	d, ok := map[string]PluginDoc{
		"PrioritySort":                    {"Orders the scheduling queue: higher pod priority first, then earlier arrival.", "the default FIFO-by-priority queue"},
		"SchedulingGates":                 {"Holds a pod out of scheduling while its spec.schedulingGates list is not empty.", "new; no legacy name"},
		"NodeName":                        {"Filter: if the pod sets spec.nodeName, only that node passes.", "predicate PodFitsHost (part of GeneralPredicates)"},
		"NodeUnschedulable":               {"Filter: rejects nodes marked spec.unschedulable (cordoned), unless the pod tolerates the node.kubernetes.io/unschedulable taint.", "predicate CheckNodeUnschedulable"},
		"TaintToleration":                 {"Filter: rejects nodes with a NoSchedule or NoExecute taint the pod does not tolerate. Score: fewer untolerated PreferNoSchedule taints score higher (normalized so the best node gets 100).", "predicate PodToleratesNodeTaints; priority TaintTolerationPriority"},
		"NodeAffinity":                    {"Filter: the node must match the pod's nodeSelector and required node affinity. Score: sums the weights of the preferred node-affinity terms the node matches, normalized to 0–100.", "predicate MatchNodeSelector; priority NodeAffinityPriority"},
		"NodePorts":                       {"Filter: rejects nodes where a hostPort the pod asks for is already taken.", "predicate PodFitsHostPorts (part of GeneralPredicates)"},
		"NodeResourcesFit":                {"Filter: the pod's requests (cpu, memory, pods, extended resources) must fit in the node's allocatable minus what is already requested there. Score: by default LeastAllocated — emptier nodes score higher; MostAllocated and RequestedToCapacityRatio are the other strategies.", "predicate PodFitsResources; priorities LeastRequestedPriority, MostRequestedPriority, RequestedToCapacityRatioPriority"},
		"NodeResourcesBalancedAllocation": {"Score: favours nodes whose cpu and memory would be used in similar proportions once the pod is placed.", "priority BalancedResourceAllocation"},
		"VolumeRestrictions":              {"Filter: rejects nodes where the pod's volumes conflict with volumes already mounted (same disk, ReadWriteOncePod already in use).", "predicate NoDiskConflict"},
		"NodeVolumeLimits":                {"Filter: rejects nodes where attaching the pod's volumes would exceed the node's CSI attach limit.", "predicates MaxCSIVolumeCount, MaxEBSVolumeCount, MaxGCEPDVolumeCount, MaxAzureDiskVolumeCount"},
		"VolumeBinding":                   {"Filter: the pod's PersistentVolumeClaims must be bound to, or bindable to, volumes usable from the node. Reserve and PreBind then bind the claims.", "predicate CheckVolumeBinding"},
		"VolumeZone":                      {"Filter: rejects nodes in a different zone or region from the pod's already-bound volumes.", "predicate NoVolumeZoneConflict"},
		"PodTopologySpread":               {"Filter: rejects nodes that would make a topologySpreadConstraint (whenUnsatisfiable: DoNotSchedule) exceed its maxSkew. Score: favours nodes that keep the spread even.", "predicate EvenPodsSpread; priorities SelectorSpreadPriority, ServiceSpreadingPriority"},
		"InterPodAffinity":                {"Filter: the node's topology domain must satisfy the pod's required pod affinity and anti-affinity, and the anti-affinity of pods already running. Score: preferred affinity terms, normalized to 0–100.", "predicate MatchInterPodAffinity; priority InterPodAffinityPriority"},
		"ImageLocality":                   {"Score: favours nodes that already hold the pod's container images, weighted by image size and how widely the image is spread.", "priority ImageLocalityPriority"},
		"DynamicResources":                {"Filter: the pod's ResourceClaims (DRA devices) must be allocatable on the node. Reserve and PreBind allocate the claims.", "new; no legacy name"},
		"NodeDeclaredFeatures":            {"Filter: the node must declare every feature the pod needs.", "new; no legacy name"},
		"DefaultPreemption":               {"PostFilter: when no node fits, looks for nodes where evicting lower-priority pods would let the pod fit, picks one, evicts the victims and nominates the node.", "the preemption step of the generic scheduler"},
		"DefaultBinder":                   {"Bind: writes the pod's binding to the API server, which sets spec.nodeName.", "the scheduler's bind call"},
		"GangScheduling":                  {"All or nothing for a PodGroup with a gang policy: PreEnqueue holds its pods until minCount members exist; in the group's pod-group cycle, PlacementFeasible says Wait while minCount can still be met and Unschedulable once it cannot; Permit holds placed members until minCount are assumed, then lets them bind together.", "new; no legacy name"},
	}[name]
	return d, ok
}

// Topic is what the panel explains: a phase and, when one is selected, a
// plugin.
type Topic struct {
	Phase    string // the phase's name
	PhaseDoc string // what the phase does
	Plugin   string // empty when no plugin is selected
	// Group, when the cycle was a pod group member's, tells its story
	// through its group and what a pod-group cycle is.
	Group string
}

// KeyMap holds the panel's keys.
type KeyMap struct {
	// Toggle shows or hides the panel.
	Toggle key.Binding
	// Close hides a panel that covers the view; the view that holds the
	// panel routes it (it also closes other things).
	Close key.Binding
}

// DefaultKeyMap returns the panel's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Toggle: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "explain")),
		Close:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Toggle} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Toggle, k.Close}} }

// Model is the explain panel. Until the user shows or hides it, it is shown
// when it has room beside what it explains (SetBeside), and hidden when it
// would cover it.
type Model struct {
	st    *theme.Styles
	Keys  KeyMap
	topic Topic
	// shown is the user's choice; set says they made one.
	shown, set bool
	beside     bool
	w, h       int
}

// New returns a panel with nothing to explain yet.
func New(st *theme.Styles) Model { return Model{st: st, Keys: DefaultKeyMap()} }

// SetTopic says what to explain.
func (m *Model) SetTopic(t Topic) { m.topic = t }

// SetSize sets the panel's size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// SetBeside says whether the panel has room beside what it explains; if not,
// it covers it when shown.
func (m *Model) SetBeside(b bool) { m.beside = b }

// Beside reports whether the panel sits beside what it explains.
func (m Model) Beside() bool { return m.beside }

// Shown reports whether the panel is on screen.
func (m Model) Shown() bool {
	if !m.set {
		return m.beside
	}
	return m.shown
}

// Covers reports whether the panel is shown over what it explains.
func (m Model) Covers() bool { return m.Shown() && !m.beside }

// Close hides a panel that covers what it explains, and reports whether it did.
func (m *Model) Close() bool {
	if !m.Covers() {
		return false
	}
	m.shown, m.set = false, true
	return true
}

// Update shows or hides the panel on Toggle.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.Keys.Toggle) {
		m.shown, m.set = !m.Shown(), true
	}
	return m, nil
}

// View renders the topic, wrapped to the panel's width.
func (m Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	// A margin from what is right of the panel: the separator beside, the
	// window's edge (two cells) over.
	wrap := m.w - 1
	if !m.beside {
		wrap = m.w - 2
	}
	return strings.Join(layout.Box(m.lines(wrap), m.w, m.h), "\n")
}

// lines renders the phase and the plugin in w cells.
func (m Model) lines(w int) []string {
	st, t := m.st, m.topic
	lines := []string{st.Title.Render("Explain · " + t.Phase)}
	lines = append(lines, layout.Wrap(t.PhaseDoc, w, "")...)
	if t.Plugin != "" {
		lines = append(lines, "", st.Title.Render(t.Plugin))
		if d, ok := PluginDocs(t.Plugin); ok {
			lines = append(lines, layout.Wrap(d.What, w, "")...)
			lines = append(lines, layout.Wrap(st.Dim.Render("older articles: ")+d.Legacy, w, "  ")...)
		} else {
			lines = append(lines, st.Dim.Render("an out-of-tree plugin; see its own documentation"))
		}
	}
	if t.Group != "" {
		lines = append(lines, "", st.Title.Render("Pod group"))
		lines = append(lines, layout.Wrap(t.Group, w, "")...)
	}
	return lines
}
