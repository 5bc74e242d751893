package commands

import (
	"github.com/spf13/cobra"
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

// applyFeatureGates sets the process's feature gates to what cmd's
// --feature-gates says, every other gate at its default, before the
// command loads a fixture or builds an engine (upstream code reads the
// process-wide gates as it is built): the root's PersistentPreRunE, so
// every command runs it. A command without the flag runs under the
// defaults.
func applyFeatureGates(cmd *cobra.Command) error {
	if err := featuregates.Reset(); err != nil {
		return err
	}
	flag := cmd.Flags().Lookup("feature-gates")
	if flag == nil {
		return nil
	}
	if f, ok := flag.Value.(*featureGatesFlag); ok && len(f.gates) > 0 {
		return featuregates.Set(f.gates)
	}
	return nil
}
