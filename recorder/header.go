package recorder

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// FormatName identifies a schedscope recording.
const FormatName = "schedscope-recording"

// SchemaVersion is the version of the record layout this package writes and reads.
// Version 2 added queue records (KindQueue); version 1 files, which have
// none, are read as they are.
const SchemaVersion = 2

// minSchemaVersion is the oldest record layout this package reads.
const minSchemaVersion = 1

// Header is the first record of a recording.
type Header struct {
	Format            string    `json:"format"`
	SchemaVersion     int       `json:"schemaVersion"`
	SchedscopeVersion string    `json:"schedscopeVersion"`
	KubernetesVersion string    `json:"kubernetesVersion"`
	Created           time.Time `json:"created"`
	Source            Source    `json:"source"`
	// Clock names the clock cycle start times were read from: ClockSimulated
	// or ClockWall. Recordings made before the field existed leave it empty:
	// the wall clock.
	Clock string `json:"clock,omitempty"`
	// FeatureGates are the scheduler's feature gates the run had other than
	// their defaults in KubernetesVersion, by name (as --feature-gates
	// takes them). Empty when all were default, and in recordings made
	// before the field existed.
	FeatureGates map[string]bool `json:"featureGates,omitempty"`
	Profiles     []Profile       `json:"profiles"`
	// Anonymized is set on a recording rewritten with stand-ins for its
	// names (anonymize RECORDING): its source names no file or cluster,
	// and its fixture is not shared, so its cycles cannot be re-run.
	Anonymized bool `json:"anonymized,omitempty"`
	// Unreadable is set by readers when the header record was damaged: every
	// other field is then unknown and zero, and the records after it are read
	// as this build's schema version.
	Unreadable bool `json:"-"`
}

// Clocks a recording's timestamps may come from.
const (
	// ClockWall is the machine's clock.
	ClockWall = "wall"
	// ClockSimulated is a fixture run's scheduling clock: the wall clock plus
	// the waits (a pod's backoff) the run skipped instead of sleeping.
	ClockSimulated = "simulated"
)

// Source says where the recorded cluster came from.
type Source struct {
	// Kind is "fixture" or "cluster".
	Kind string `json:"kind"`
	// Name is the fixture path or the kubeconfig context.
	Name string `json:"name"`
	// Config is the KubeSchedulerConfiguration file, empty for the default profile.
	Config string `json:"config,omitempty"`
	// A fixture's run also says what makes it again, so that a replay can
	// re-run its cycles (what-if) on the same cluster: Digest and
	// ConfigDigest identify the fixture's and the configuration's bytes
	// ("sha256:…"); Arrival is how the pending pods arrived ("burst", or
	// empty for one after the other) and ArrivalInterval how far apart.
	// Recordings made before they were recorded have none.
	Digest          string   `json:"digest,omitempty"`
	ConfigDigest    string   `json:"configDigest,omitempty"`
	Arrival         string   `json:"arrival,omitempty"`
	ArrivalInterval Duration `json:"arrivalInterval,omitempty"`
}

// Profile is one scheduler profile as the framework instantiated it.
type Profile struct {
	SchedulerName string `json:"schedulerName"`
	// PercentageOfNodesToScore is the effective setting; 0 means adaptive.
	PercentageOfNodesToScore int32            `json:"percentageOfNodesToScore"`
	ExtensionPoints          []ExtensionPoint `json:"extensionPoints"`
}

// ExtensionPoint lists the plugins enabled at one extension point, in call order.
type ExtensionPoint struct {
	Name    string      `json:"name"`
	Plugins []PluginRef `json:"plugins"`
}

// PluginRef names a plugin; Weight is set for Score plugins.
type PluginRef struct {
	Name   string `json:"name"`
	Weight int32  `json:"weight,omitempty"`
}

// Profile returns the named profile, or nil.
func (h *Header) Profile(name string) *Profile {
	for i := range h.Profiles {
		if h.Profiles[i].SchedulerName == name {
			return &h.Profiles[i]
		}
	}
	return nil
}

// FormatFeatureGates writes gates as --feature-gates takes them
// ("A=true,B=false"), sorted by name: how a header's FeatureGates are
// shown and, through engine/featuregates.Format, how a run's are.
func FormatFeatureGates(gates map[string]bool) string {
	var b strings.Builder
	for i, k := range slices.Sorted(maps.Keys(gates)) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%t", k, gates[k])
	}
	return b.String()
}
