package commands

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/input"
)

// changeFlags are the flags that describe a what-if change.
type changeFlags struct {
	PatchPod    string
	PodFile     string
	PatchNodes  []string
	AddNodes    []string
	CopyNodes   []string
	RemoveNodes []string
	Evict       []string
	WithConfig  string
	SetWeights  []string
	Disable     []string
	Enable      []string
	Percentage  int32
	pctSet      bool
}

func (c *changeFlags) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&c.PatchPod, "patch-pod", "", "strategic-merge patch of the pod, JSON or YAML as kubectl patch takes it (@FILE reads a file)")
	fs.StringVar(&c.PodFile, "pod-file", "", "a whole Pod manifest replacing the pod")
	fs.StringArrayVar(&c.PatchNodes, "patch-node", nil, "NAME=PATCH: strategic-merge patch of a node (labels, taints, allocatable, spec.unschedulable); repeatable")
	fs.StringArrayVar(&c.AddNodes, "add-node", nil, "a Node manifest to add; repeatable")
	fs.StringArrayVar(&c.CopyNodes, "copy-node", nil, "NODE[=NAME]: add an empty node like NODE (default name NODE-copy); repeatable")
	fs.StringArrayVar(&c.RemoveNodes, "remove-node", nil, "a node to remove, with its pods; repeatable")
	fs.StringArrayVar(&c.Evict, "evict", nil, "NAMESPACE/NAME of a pod to evict before the cycle; repeatable")
	fs.StringVar(&c.WithConfig, "with-config", "", "another KubeSchedulerConfiguration to schedule the pod with")
	fs.StringArrayVar(&c.SetWeights, "set-weight", nil, "PLUGIN=N: a score plugin's weight in the pod's profile; repeatable")
	fs.StringArrayVar(&c.Disable, "disable", nil, "PLUGIN[:POINT]: disable a plugin (at one extension point, e.g. NodeResourcesFit:score); repeatable")
	fs.StringArrayVar(&c.Enable, "enable", nil, "PLUGIN:POINT: enable an in-tree plugin at an extension point; repeatable")
	fs.Int32Var(&c.Percentage, "percentage-of-nodes-to-score", 0, "the pod's profile's percentageOfNodesToScore (0-100)")
}

// readArg returns an argument's value, or the file it names with @FILE.
func readArg(flag, v string) ([]byte, error) {
	if name, ok := strings.CutPrefix(v, "@"); ok {
		data, err := input.ReadFile(name, input.ManifestLimit, "patch")
		if err != nil {
			return nil, errorf("--%s: %v", flag, err)
		}
		return data, nil
	}
	return []byte(v), nil
}

// build turns the flags into changes, in a fixed order: scheduler, nodes,
// pods, the pod. Errors name the flag.
func (c *changeFlags) build(fs *pflag.FlagSet) ([]engine.Change, error) {
	c.pctSet = fs != nil && fs.Changed("percentage-of-nodes-to-score")
	var out []engine.Change
	if c.WithConfig != "" {
		cfg, err := engine.LoadConfigFile(c.WithConfig)
		if err != nil {
			return nil, errorf("--with-config: %v", err)
		}
		out = append(out, engine.UseConfig(cfg, c.WithConfig))
	}
	for _, s := range c.SetWeights {
		name, val, ok := strings.Cut(s, "=")
		w, err := strconv.ParseInt(val, 10, 32)
		if !ok || name == "" || err != nil {
			return nil, errorf("--set-weight %q: want PLUGIN=N, e.g. NodeResourcesFit=5", input.Quote(s))
		}
		out = append(out, engine.SetWeight(name, int32(w)))
	}
	for _, s := range c.Disable {
		name, point, _ := strings.Cut(s, ":")
		if name == "" {
			return nil, errorf("--disable %q: want PLUGIN or PLUGIN:POINT", input.Quote(s))
		}
		out = append(out, engine.DisablePlugin(name, point))
	}
	for _, s := range c.Enable {
		name, point, ok := strings.Cut(s, ":")
		if !ok || name == "" || point == "" {
			return nil, errorf("--enable %q: want PLUGIN:POINT, e.g. NodeResourcesFit:score", input.Quote(s))
		}
		out = append(out, engine.EnablePlugin(name, point))
	}
	if c.pctSet {
		out = append(out, engine.SetPercentageOfNodesToScore(c.Percentage))
	}
	for _, s := range c.RemoveNodes {
		out = append(out, engine.RemoveNode(s))
	}
	for _, s := range c.PatchNodes {
		name, patch, ok := strings.Cut(s, "=")
		if !ok || name == "" {
			return nil, errorf("--patch-node %q: want NAME=PATCH, e.g. n1='{\"spec\":{\"unschedulable\":false}}'", input.Quote(s))
		}
		data, err := readArg("patch-node", patch)
		if err != nil {
			return nil, err
		}
		out = append(out, engine.PatchNode(name, data))
	}
	for _, s := range c.AddNodes {
		data, err := fixture.ReadManifestFile(s)
		if err != nil {
			return nil, errorf("--add-node: %v", err)
		}
		out = append(out, engine.AddNode(data, s))
	}
	for _, s := range c.CopyNodes {
		from, name, ok := strings.Cut(s, "=")
		if !ok {
			name = from + "-copy"
		}
		if from == "" || name == "" {
			return nil, errorf("--copy-node %q: want NODE or NODE=NAME", input.Quote(s))
		}
		out = append(out, engine.CopyNode(from, name))
	}
	for _, s := range c.Evict {
		out = append(out, engine.EvictPod(s))
	}
	if c.PodFile != "" {
		if c.PatchPod != "" {
			return nil, errorf("--pod-file and --patch-pod both change the pod; give one")
		}
		data, err := fixture.ReadManifestFile(c.PodFile)
		if err != nil {
			return nil, errorf("--pod-file: %v", err)
		}
		out = append(out, engine.ReplacePod(data, c.PodFile))
	}
	if c.PatchPod != "" {
		data, err := readArg("patch-pod", c.PatchPod)
		if err != nil {
			return nil, err
		}
		out = append(out, engine.PatchPod(data))
	}
	return out, nil
}

// WhatIfOptions holds the flags of whatif.
type WhatIfOptions struct {
	simOptions
	changeFlags
	Pod    string
	Cycle  int
	Output string
	// Scale is KIND/NAME=N: run the whole fixture with the workload asking
	// for N pods instead of re-running one cycle.
	Scale string

	flags   *pflag.FlagSet
	streams genericiooptions.IOStreams
}

// NewCmdWhatIf re-runs one recorded cycle on a changed copy of its state.
func NewCmdWhatIf(streams genericiooptions.IOStreams) *cobra.Command {
	o := &WhatIfOptions{streams: streams, simOptions: simOptions{stdin: streams.In}}
	cmd := &cobra.Command{
		Use:   "whatif -f FIXTURE --pod NAME [--cycle N] [CHANGES] [-o text|json|yaml]",
		Short: "Re-run a pod's scheduling cycle with a change and show what differs",
		Long: "whatif runs the fixture up to the pod's cycle, takes the state that cycle saw (nodes, placed and\n" +
			"nominated pods, the profile, where the node search began), applies the changes and runs the real\n" +
			"scheduler once more on that copy. It prints the new cycle's outcome and what changed: nodes that\n" +
			"became feasible or infeasible and why, score deltas per plugin, the new winner. Nothing else runs.",
		Example: `  kubectl schedscope whatif -f fixtures/unschedulable.yaml --pod stuck --patch-node 'cordoned={"spec":{"unschedulable":false}}'
  kubectl schedscope whatif -f cluster.yaml --pod web --patch-pod '{"spec":{"tolerations":[{"key":"team","operator":"Exists"}]}}'
  kubectl schedscope whatif -f cluster.yaml --pod web --set-weight NodeResourcesBalancedAllocation=5 -o json
  kubectl schedscope whatif -f cluster.yaml --pod web --copy-node n1 --evict default/batch-7
  kubectl schedscope whatif -f workloads --scale deploy/web=12`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.flags = cmd.Flags()
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run(cmd.Context())
		},
	}
	o.simOptions.addFlags(cmd.Flags())
	o.changeFlags.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Pod, "pod", "", "the pod (name or namespace/name) whose cycle to re-run")
	cmd.Flags().IntVar(&o.Cycle, "cycle", 0, "the cycle (its number, as explain prints it) to re-run; default the pod's first")
	cmd.Flags().StringVar(&o.Scale, "scale", "", "KIND/NAME=N: run the whole fixture again with the workload (deploy, rs, sts, rc, job) asking for N pods, its controller making them, and show where they go")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "output format: text, json or yaml")
	return cmd
}

// Validate checks flag values.
func (o *WhatIfOptions) Validate() error {
	if o.Scale != "" {
		if _, _, _, _, err := parseScale(o.Scale); err != nil {
			return err
		}
		if o.Pod != "" || o.Cycle != 0 || o.flags != nil && changeFlagsSet(o.flags) {
			return errorf("--scale re-runs the whole fixture: it takes no --pod, --cycle or other change")
		}
		return validOutput(o.Output)
	}
	if o.Pod == "" && o.Cycle == 0 {
		return errorf("--pod is required: name the pod whose cycle to re-run")
	}
	if o.Cycle < 0 {
		return errorf("--cycle must be a cycle number (1 or more), not %d", o.Cycle)
	}
	return validOutput(o.Output)
}

// whatIfDocument is whatif's JSON output.
type whatIfDocument struct {
	Pod     string          `json:"pod"`
	Changes []engine.Change `json:"changes"`
	// Before is the cycle the changes apply to: as recorded, or, when the
	// search was sampled, the unchanged re-run.
	Before export.Cycle `json:"before"`
	After  export.Cycle `json:"after"`
	// Later are the pod's further cycles after the change (the retry that
	// binds it after a preemption).
	Later []export.Cycle      `json:"later,omitempty"`
	Diff  *recorder.CycleDiff `json:"diff"`
	// Sampled is set when the cycle's search stopped early
	// (percentageOfNodesToScore): then Before is an unchanged re-run made the
	// same deterministic way as After, and RecordedSampleDiffers says whether
	// it visited other nodes than the recorded cycle.
	Sampled               bool `json:"sampled"`
	RecordedSampleDiffers bool `json:"recordedSampleDiffers,omitempty"`
	// Landing is where the pod would go: bound by the cycle, or after its preemption.
	Landing string `json:"landing"`
}

// forkCycle runs the fixture to the cycle asked for.
func (o *simOptions) forkCycle(ctx context.Context, pod string, cycle int) (*engine.Fork, error) {
	return o.forkAt(ctx, engine.ForkTarget{Pod: pod, Seq: cycle})
}

// forkAt runs the fixture up to the target cycle and forks there.
func (o *simOptions) forkAt(ctx context.Context, target engine.ForkTarget) (*engine.Fork, error) {
	silenceKlog()
	mode, err := engine.ParseDiagnosticMode(o.Diagnostic)
	if err != nil {
		return nil, err
	}
	fx, err := o.loadFixture()
	if err != nil {
		return nil, err
	}
	cfg, err := engine.LoadConfigFile(o.Config)
	if err != nil {
		return nil, err
	}
	if err := o.checkArrival(); err != nil {
		return nil, err
	}
	target.Burst = o.Arrival == arrivalBurst
	return engine.ForkAt(ctx, fx, engine.Options{Config: cfg, ConfigPath: o.Config, Diagnostic: mode, ArrivalInterval: o.ArrivalInterval}, target)
}

// Run forks, changes, re-runs and prints.
func (o *WhatIfOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.Scale != "" {
		return o.runScale(ctx)
	}
	changes, err := o.changeFlags.build(o.flags)
	if err != nil {
		return err
	}
	if err := o.checkInputs(); err != nil {
		return err
	}
	f, err := o.forkCycle(ctx, o.Pod, o.Cycle)
	if err != nil {
		return err
	}
	changed, err := f.With(changes...)
	if err != nil {
		return err
	}
	before := f.Recorded
	doc := whatIfDocument{Pod: f.Pod.Namespace + "/" + f.Pod.Name, Changes: changes, Sampled: f.Sampled()}
	if doc.Changes == nil {
		doc.Changes = []engine.Change{}
	}
	// A change to the pod alone re-runs on the scheduler the sampled
	// baseline ran on: it is built once.
	runner := f.NewRunner()
	defer runner.Close()
	if f.Sampled() {
		base, err := runner.Run(ctx, f)
		if err != nil {
			return err
		}
		doc.RecordedSampleDiffers = recorder.DiffCycles(f.Recorded, base.Cycle).Sampling != nil
		before = base.Cycle
	}
	after, err := runner.Run(ctx, changed)
	if err != nil {
		return err
	}
	doc.Before = export.NewCycle(before)
	doc.After = export.NewCycle(after.Cycle)
	for _, c := range after.Later {
		doc.Later = append(doc.Later, export.NewCycle(c))
	}
	doc.Diff = recorder.DiffCycles(before, after.Cycle)
	doc.Landing, _ = after.Landing()
	switch o.Output {
	case "json", "yaml":
		return writeDocument(o.streams.Out, o.Output, doc)
	}
	t := newTextWriter(o.streams.Out)
	t.whatIf(f, changes, before, after, doc)
	return t.err
}

// writeDocument prints v as indented JSON, or as YAML.
func writeDocument(w interface{ Write([]byte) (int, error) }, format string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if format == "yaml" {
		if data, err = jsonToYAML(data); err != nil {
			return err
		}
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
