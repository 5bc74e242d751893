// Package featuregates is the one place schedscope reads and sets
// kube-scheduler's feature gates. Upstream code (the scheduler, admission,
// validation, the controllers, which kinds the API server serves) reads them
// from one process-wide gate, k8s.io/apiserver's DefaultFeatureGate, as
// kube-scheduler's --feature-gates sets it: so they are set once, before a
// fixture is loaded or an engine built, and every run in the process,
// what-if forks included, runs under them.
package featuregates

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/schedscope/schedscope/recorder"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"

	// The kube gates: registered in DefaultFeatureGate by this import.
	_ "k8s.io/kubernetes/pkg/features"
)

// Parse reads value as kube-scheduler's --feature-gates takes it
// ("Name=true,Other=false") and checks it as kube-scheduler does, on a
// copy of the process's gates: an unknown gate, one locked to its default,
// or one enabled without a gate it depends on is refused, with upstream's
// words ("unrecognized feature gate: Name"). The process is not changed.
func Parse(value string) (map[string]bool, error) {
	m := map[string]bool{}
	for _, s := range strings.Split(value, ",") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		k = strings.TrimSpace(k)
		if !ok {
			return nil, fmt.Errorf("missing bool value for %s", k)
		}
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("invalid value of %s=%s, err: %v", k, strings.TrimSpace(v), err)
		}
		m[k] = b
	}
	if err := check(utilfeature.DefaultMutableFeatureGate.DeepCopy(), m); err != nil {
		return nil, err
	}
	return m, nil
}

// check sets m on gate and returns its refusal, on one line.
func check(gate featuregate.MutableVersionedFeatureGate, m map[string]bool) error {
	set := gate.SetFromMap
	if g, ok := gate.(interface {
		SetFromMapWithLogger(klog.Logger, map[string]bool) error
	}); ok {
		// A zero logger drops upstream's warnings about GA and deprecated gates.
		set = func(m map[string]bool) error { return g.SetFromMapWithLogger(klog.Logger{}, m) }
	}
	if err := set(m); err != nil {
		return fmt.Errorf("%s", strings.Join(strings.Fields(err.Error()), " "))
	}
	return nil
}

// Set sets m in the process's feature gates, as kube-scheduler's
// --feature-gates does. It must run before any fixture is loaded or engine
// built: what was built before keeps the gates it read.
func Set(m map[string]bool) error {
	// Checked on a copy first: a refused SetFromMap keeps what it refused,
	// and every later one would be refused with it.
	if err := check(utilfeature.DefaultMutableFeatureGate.DeepCopy(), m); err != nil {
		return err
	}
	return check(utilfeature.DefaultMutableFeatureGate, m)
}

// Reset puts every gate of the process back to its default, as a process
// that took no --feature-gates has them: a command run again in one process
// (tests, a library) starts from the defaults.
func Reset() error {
	g := utilfeature.DefaultMutableFeatureGate
	// AllAlpha and AllBeta first: the gates they set stay set until reset
	// one by one.
	for _, name := range []featuregate.Feature{"AllAlpha", "AllBeta"} {
		if g.ExplicitlySet(name) {
			if err := g.ResetFeatureValueToDefault(name); err != nil {
				return err
			}
		}
	}
	for name := range NonDefault() {
		if err := g.ResetFeatureValueToDefault(featuregate.Feature(name)); err != nil {
			return err
		}
	}
	return nil
}

// NonDefault is every gate the process has other than its default in this
// build of Kubernetes (AllAlpha and AllBeta as the gates they set): what a
// run used, beside the Kubernetes version. Empty when all are default.
func NonDefault() map[string]bool {
	out := map[string]bool{}
	defaults := utilfeature.DefaultMutableFeatureGate.DeepCopyAndReset()
	for name, spec := range utilfeature.DefaultMutableFeatureGate.GetAll() {
		if name == "AllAlpha" || name == "AllBeta" || spec.LockToDefault {
			continue
		}
		if on := utilfeature.DefaultFeatureGate.Enabled(name); on != defaults.Enabled(name) {
			out[string(name)] = on
		}
	}
	return out
}

// Differing is the gates of other (another component's, by name) that
// this build knows and may set, and the process has otherwise: what
// --feature-gates would take to match other.
func Differing(other map[string]bool) map[string]bool {
	all := utilfeature.DefaultMutableFeatureGate.GetAll()
	out := map[string]bool{}
	for name, on := range other {
		spec, known := all[featuregate.Feature(name)]
		if !known || spec.LockToDefault || name == "AllAlpha" || name == "AllBeta" {
			continue
		}
		if on != utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(name)) {
			out[name] = on
		}
	}
	return out
}

// Format writes m as --feature-gates takes it, sorted by name.
func Format(m map[string]bool) string { return recorder.FormatFeatureGates(m) }

// Check refuses a run that asks for other gates than the process has:
// want is what NonDefault said when the run was set up (a fork's, its
// recording's). Gates are process-wide, so two runs with different gates
// cannot share a process.
func Check(want map[string]bool) error {
	have := NonDefault()
	if maps.Equal(have, want) || len(have) == 0 && len(want) == 0 {
		return nil
	}
	return fmt.Errorf("the run asks for feature gates %q, but the process runs with %q: feature gates are process-wide (set once, before any fixture is loaded)", orDefault(Format(want)), orDefault(Format(have)))
}

func orDefault(s string) string {
	if s == "" {
		return "the defaults"
	}
	return s
}
