package commands

import (
	"github.com/spf13/pflag"

	"github.com/schedscope/schedscope/engine/featuregates"
)

// featureGatesUsage is --feature-gates' help, as kube-scheduler's starts.
const featureGatesUsage = "a set of key=value pairs that describe feature gates for alpha/experimental features, as kube-scheduler's --feature-gates takes them (e.g. GenericWorkload=true,OpportunisticBatching=false): applied to the scheduler, admission, validation, the controllers and which kinds a fixture may hold"

// featureGatesFlag is --feature-gates: checked as it is parsed, as
// kube-scheduler checks it (an unknown gate, or one locked to its default,
// is refused naming it), and set in the process before the command runs.
type featureGatesFlag struct {
	value string
	gates map[string]bool
}

var _ pflag.Value = (*featureGatesFlag)(nil)

func (f *featureGatesFlag) String() string { return f.value }
func (f *featureGatesFlag) Type() string   { return "mapStringBool" }

// Set parses and checks value; the process is not changed until the
// command runs (applyFeatureGates).
func (f *featureGatesFlag) Set(value string) error {
	m, err := featuregates.Parse(value)
	if err != nil {
		return err
	}
	if f.gates == nil {
		f.gates = map[string]bool{}
	}
	for k, v := range m {
		f.gates[k] = v
	}
	f.value = featuregates.Format(f.gates)
	return nil
}

func (f *featureGatesFlag) addFlag(fs *pflag.FlagSet) {
	fs.Var(f, "feature-gates", featureGatesUsage)
}

// featureGates returns the gates the flag names.
func (f *featureGatesFlag) featureGates() map[string]bool { return f.gates }

// gated is a command's options that take --feature-gates.
type gated interface{ featureGates() map[string]bool }

// applyFeatureGates sets the process's feature gates to what o's
// --feature-gates says, every other gate at its default, before the
// command loads a fixture or builds an engine (upstream code reads the
// process-wide gates as it is built). A command without the flag runs
// under the defaults.
func applyFeatureGates(o any) error {
	var m map[string]bool
	if g, ok := o.(gated); ok {
		m = g.featureGates()
	}
	if err := featuregates.Reset(); err != nil {
		return err
	}
	if len(m) == 0 {
		return nil
	}
	return featuregates.Set(m)
}
