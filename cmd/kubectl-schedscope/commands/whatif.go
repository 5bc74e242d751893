package commands

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/otel"
	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/recorder/input"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// A changeFlag is one whatif flag that makes a change: its name and help,
// how each value becomes a change, and how a change of its kind is written
// back as the flag (suggest prints each suggestion as a whatif command).
// A new kind of change is one entry here.
type changeFlag struct {
	name, usage string
	// repeat makes a flag that may be given several times; file is set
	// when the value names a file (its errors name it already).
	repeat, file bool
	parse        func(v string) (recorder.Change, error)
	// value is the flag's value that makes c, and false when c is not of
	// this flag's kind.
	value func(c recorder.Change) ([]string, bool)
}

// changeFlagList are the change flags in the order whatif applies them:
// scheduler, nodes, pods, the pod.
var changeFlagList = []changeFlag{
	{name: "with-config", file: true, usage: "another KubeSchedulerConfiguration to schedule the pod with",
		parse: func(v string) (recorder.Change, error) {
			data, err := input.ReadFile(v, input.ManifestLimit, "scheduler configuration")
			if err != nil {
				return nil, err
			}
			if _, err := engine.LoadConfig(v, data); err != nil {
				return nil, err
			}
			return recorder.UseConfig{Path: v, Data: data}, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			u, ok := c.(recorder.UseConfig)
			return []string{u.Path}, ok
		}},
	{name: "set-weight", repeat: true, usage: "PLUGIN=N: a score plugin's weight in the pod's profile; repeatable",
		parse: func(v string) (recorder.Change, error) {
			w, err := recorder.ParseSetWeight(v)
			if err != nil {
				return nil, err
			}
			return w, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			w, ok := c.(recorder.SetWeight)
			return []string{fmt.Sprintf("%s=%d", w.Plugin, w.Weight)}, ok
		}},
	{name: "disable", repeat: true, usage: "PLUGIN[:POINT]: disable a plugin (at one extension point, e.g. NodeResourcesFit:score); repeatable",
		parse: func(v string) (recorder.Change, error) {
			d, err := recorder.ParseDisable(v)
			if err != nil {
				return nil, err
			}
			return d, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			d, ok := c.(recorder.Disable)
			return []string{pluginAt(d.Plugin, d.Point)}, ok
		}},
	{name: "enable", repeat: true, usage: "PLUGIN:POINT: enable an in-tree plugin at an extension point; repeatable",
		parse: func(v string) (recorder.Change, error) {
			name, point, ok := strings.Cut(v, ":")
			if !ok || name == "" || point == "" {
				return nil, errors.New("want PLUGIN:POINT, e.g. NodeResourcesFit:score")
			}
			return recorder.Enable{Plugin: name, Point: point}, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			e, ok := c.(recorder.Enable)
			return []string{pluginAt(e.Plugin, e.Point)}, ok
		}},
	{name: "percentage-of-nodes-to-score", usage: "the pod's profile's percentageOfNodesToScore (0-100)",
		parse: func(v string) (recorder.Change, error) {
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil {
				return nil, errors.New("want a whole number from 0 to 100")
			}
			return recorder.SetPercentage{Percent: int32(n)}, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			p, ok := c.(recorder.SetPercentage)
			return []string{strconv.Itoa(int(p.Percent))}, ok
		}},
	{name: "remove-node", repeat: true, usage: "a node to remove, with its pods; repeatable",
		parse: func(v string) (recorder.Change, error) { return recorder.RemoveNode{Node: v}, nil },
		value: func(c recorder.Change) ([]string, bool) {
			r, ok := c.(recorder.RemoveNode)
			return []string{r.Node}, ok
		}},
	{name: "patch-node", repeat: true, usage: "NAME=PATCH: strategic-merge patch of a node (labels, taints, allocatable, spec.unschedulable); repeatable",
		parse: func(v string) (recorder.Change, error) {
			name, patch, ok := strings.Cut(v, "=")
			if !ok || name == "" {
				return nil, errors.New(`want NAME=PATCH, e.g. n1='{"spec":{"unschedulable":false}}'`)
			}
			data, err := readArg(patch)
			if err != nil {
				return nil, err
			}
			return recorder.PatchNode{Node: name, Patch: string(data)}, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			p, ok := c.(recorder.PatchNode)
			return []string{p.Node + "=" + p.Patch}, ok
		}},
	{name: "add-node", file: true, repeat: true, usage: "a Node manifest to add; repeatable",
		parse: func(v string) (recorder.Change, error) {
			data, err := fixture.ReadManifestFile(v)
			if err != nil {
				return nil, err
			}
			return recorder.AddNode{Manifest: data, Source: v}, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			a, ok := c.(recorder.AddNode)
			return []string{a.Source}, ok
		}},
	{name: "copy-node", repeat: true, usage: "NODE[=NAME]: add an empty node like NODE (default name NODE-copy); repeatable",
		parse: func(v string) (recorder.Change, error) {
			from, name, ok := strings.Cut(v, "=")
			if !ok {
				name = from + "-copy"
			}
			if from == "" || name == "" {
				return nil, errors.New("want NODE or NODE=NAME")
			}
			return recorder.CopyNode{From: from, Node: name}, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			cp, ok := c.(recorder.CopyNode)
			return []string{cp.From + "=" + cp.Node}, ok
		}},
	{name: "evict", repeat: true, usage: "NAMESPACE/NAME of a pod to evict before the cycle; repeatable",
		parse: func(v string) (recorder.Change, error) { return recorder.Evict{Pods: []string{v}}, nil },
		value: func(c recorder.Change) ([]string, bool) {
			e, ok := c.(recorder.Evict)
			return e.Pods, ok
		}},
	{name: "min-count", usage: "N: the gang's minCount (with --pod-group)",
		parse: func(v string) (recorder.Change, error) {
			n, err := strconv.ParseInt(v, 10, 32)
			if err != nil || n < 1 {
				return nil, errors.New("want a whole number, 1 or more")
			}
			return recorder.SetMinCount{MinCount: int32(n)}, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			m, ok := c.(recorder.SetMinCount)
			return []string{strconv.Itoa(int(m.MinCount))}, ok
		}},
	{name: "pod-file", file: true, usage: "a whole Pod manifest replacing the pod",
		parse: func(v string) (recorder.Change, error) {
			data, err := fixture.ReadManifestFile(v)
			if err != nil {
				return nil, err
			}
			return recorder.ReplacePod{Manifest: data, Source: v}, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			r, ok := c.(recorder.ReplacePod)
			return []string{r.Source}, ok
		}},
	{name: "patch-pod", repeat: true, usage: "strategic-merge patch of the pod, JSON or YAML as kubectl patch takes it (@FILE reads a file); with --pod-group MEMBER=PATCH, a member's, repeatable",
		parse: func(v string) (recorder.Change, error) {
			pod, patch := "", v
			if name, rest, ok := strings.Cut(v, "="); ok && podName.MatchString(name) {
				pod, patch = name, rest
			}
			data, err := readArg(patch)
			if err != nil {
				return nil, err
			}
			return recorder.PatchPod{Pod: pod, Patch: string(data)}, nil
		},
		value: func(c recorder.Change) ([]string, bool) {
			p, ok := c.(recorder.PatchPod)
			if p.Pod != "" {
				return []string{p.Pod + "=" + compactPatch(p.Patch)}, ok
			}
			return []string{compactPatch(p.Patch)}, ok
		}},
}

// podName is a pod's name or namespace/name, as --patch-pod MEMBER=PATCH
// names a member before its patch (a patch, JSON or YAML, never starts so).
var podName = regexp.MustCompile(`^([a-z0-9]([-a-z0-9]*[a-z0-9])?/)?[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`)

func pluginAt(plugin, point string) string {
	if point == "" {
		return plugin
	}
	return plugin + ":" + point
}

// compactPatch shows a patch on one line, as JSON when it parses.
func compactPatch(patch string) string {
	if js, err := yaml.YAMLToJSON([]byte(patch)); err == nil {
		return string(js)
	}
	return strings.Join(strings.Fields(patch), " ")
}

// changeFlags are the values given to the change flags, by flag.
type changeFlags struct {
	values map[string]*[]string
	single map[string]*string
}

func (c *changeFlags) addFlags(fs *pflag.FlagSet) {
	c.values, c.single = map[string]*[]string{}, map[string]*string{}
	for _, f := range changeFlagList {
		if f.repeat {
			c.values[f.name] = fs.StringArray(f.name, nil, f.usage)
		} else {
			c.single[f.name] = fs.String(f.name, "", f.usage)
		}
	}
}

// readArg returns an argument's value, or the file it names with @FILE
// (its errors a fileError: they name the file).
func readArg(v string) ([]byte, error) {
	if name, ok := strings.CutPrefix(v, "@"); ok {
		data, err := input.ReadFile(name, input.ManifestLimit, "patch")
		if err != nil {
			return nil, fileError{err}
		}
		return data, nil
	}
	return []byte(v), nil
}

// fileError is an error reading a file a flag names, which names the file.
type fileError struct{ error }

func (e fileError) Unwrap() error { return e.error }

// build turns the flags given into changes, in changeFlagList's order.
// Errors name the flag and quote the value.
func (c *changeFlags) build(fs *pflag.FlagSet) ([]recorder.Change, error) {
	if fs != nil && fs.Changed("pod-file") && fs.Changed("patch-pod") {
		return nil, errorf("--pod-file and --patch-pod both change the pod; give one")
	}
	var out []recorder.Change
	for _, f := range changeFlagList {
		var given []string
		if f.repeat {
			given = *c.values[f.name]
		} else if fs != nil && fs.Changed(f.name) {
			given = []string{*c.single[f.name]}
		}
		for _, v := range given {
			ch, err := f.parse(v)
			switch {
			case err != nil && (f.file || errors.As(err, new(fileError))):
				return nil, errorf("--%s: %v", f.name, err)
			case err != nil:
				return nil, errorf("--%s %q: %v", f.name, input.Quote(v), err)
			}
			out = append(out, ch)
		}
	}
	return out, nil
}

// changeArgs are the whatif flags that make c.
func changeArgs(c recorder.Change) []string {
	for _, f := range changeFlagList {
		if vs, ok := f.value(c); ok {
			var args []string
			for _, v := range vs {
				args = append(args, "--"+f.name, v)
			}
			return args
		}
	}
	return nil
}

// changeDoc is a change in whatif's JSON.
type changeDoc = export.Change

// changeDocs words changes for whatif's JSON, with the flags that make them.
func changeDocs(changes []recorder.Change) []changeDoc {
	out := []changeDoc{}
	for _, c := range changes {
		out = append(out, changeDoc{Kind: c.Kind(), Text: narrate.Change(c), Args: changeArgs(c)})
	}
	return out
}

// WhatIfOptions holds the flags of whatif.
type WhatIfOptions struct {
	simOptions
	changeFlags
	Pod    string
	Cycle  int
	Output string
	// PodGroup re-runs the whole fixture for a pod group's cycle instead
	// of one pod's cycle (whatif_pod_group.go).
	PodGroup string
	// Scale is KIND/NAME=N: run the whole fixture with the workload asking
	// for N pods instead of re-running one cycle.
	Scale string
	otlp  otlpOptions

	flags   *pflag.FlagSet
	streams genericiooptions.IOStreams
}

// NewCmdWhatIf re-runs one recorded cycle on a changed copy of its state.
func NewCmdWhatIf(streams genericiooptions.IOStreams) *cobra.Command {
	o := &WhatIfOptions{streams: streams, simOptions: simOptions{stdin: streams.In}}
	cmd := &cobra.Command{
		Use:   "whatif -f FIXTURE (--pod NAME [--cycle N] | --pod-group NAME) [CHANGES] [-o text|json|yaml]",
		Short: "Re-run a pod's scheduling cycle with a change and show what differs",
		Long: "whatif runs the fixture up to the pod's cycle, takes the state that cycle saw (nodes, placed and\n" +
			"nominated pods, the profile, where the node search began), applies the changes and runs the real\n" +
			"scheduler once more on that copy. It prints the new cycle's outcome and what changed: nodes that\n" +
			"became feasible or infeasible and why, score deltas per plugin, the new winner. Nothing else runs.\n\n" +
			"With --pod-group (--feature-gates=GenericWorkload=true) it runs the whole fixture twice, as it is and\n" +
			"changed, and prints the group's pod-group cycle of each side by side: outcome, minCount, where each\n" +
			"member went, what was reverted. --min-count N and --patch-pod MEMBER=PATCH change the group.",
		Example: `  kubectl schedscope whatif -f fixtures/unschedulable.yaml --pod stuck --patch-node 'cordoned={"spec":{"unschedulable":false}}'
  kubectl schedscope whatif -f cluster.yaml --pod web --patch-pod '{"spec":{"tolerations":[{"key":"team","operator":"Exists"}]}}'
  kubectl schedscope whatif -f cluster.yaml --pod web --set-weight NodeResourcesBalancedAllocation=5 -o json
  kubectl schedscope whatif -f cluster.yaml --pod web --copy-node n1 --evict default/batch-7
  kubectl schedscope whatif -f workloads --scale deploy/web=12
  kubectl schedscope whatif -f gangs.yaml --feature-gates=GenericWorkload=true --pod-group infer --min-count 2`,
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
	cmd.Flags().StringVar(&o.Pod, "pod", "", "the pod whose cycle to re-run (name, namespace/name, or a handle: deploy/web, deploy/web#3)")
	cmd.Flags().StringVar(&o.PodGroup, "pod-group", "", "the pod group (name, namespace/name, or pg/name) whose pod-group cycle to compare, the whole fixture re-run with the changes (--feature-gates=GenericWorkload=true)")
	cmd.Flags().IntVar(&o.Cycle, "cycle", 0, "the cycle (its number, as explain prints it) to re-run; default the pod's first")
	cmd.Flags().StringVar(&o.Scale, "scale", "", "KIND/NAME=N: run the whole fixture again with the workload (deploy, rs, sts, rc, job) asking for N pods, its controller making them, and show where they go")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "output format: text, json or yaml")
	o.otlp.addFlags(cmd.Flags())
	return cmd
}

// Validate checks flag values.
func (o *WhatIfOptions) Validate() error {
	if err := o.otlp.validate(); err != nil {
		return err
	}
	if o.Scale != "" {
		if _, _, _, _, err := parseScale(o.Scale); err != nil {
			return err
		}
		if o.Pod != "" || o.Cycle != 0 || o.PodGroup != "" || o.flags != nil && changeFlagsSet(o.flags) {
			return errorf("--scale re-runs the whole fixture: it takes no --pod, --pod-group, --cycle or other change")
		}
		return validOutput(o.Output)
	}
	if o.PodGroup != "" {
		if o.Pod != "" || o.Cycle != 0 {
			return errorf("--pod and --cycle name a pod's cycle: --pod-group re-runs the whole fixture and takes neither")
		}
		return validOutput(o.Output)
	}
	if o.flags != nil && o.flags.Changed("min-count") {
		return errorf("--min-count changes a pod group: give --pod-group")
	}
	if o.Pod == "" && o.Cycle == 0 {
		return errorf("--pod is required: name the pod whose cycle to re-run")
	}
	if o.Cycle < 0 {
		return errorf("--cycle must be a cycle number (1 or more), not %d", o.Cycle)
	}
	return validOutput(o.Output)
}

// fork runs the fixture, through the library, up to the cycle at names
// and forks there; ctx's hooks hear the engine's fork.
func (o *simOptions) fork(ctx context.Context, at scenario.At) (*scenario.Fork, error) {
	silenceKlog()
	if err := o.checkArrival(); err != nil {
		return nil, err
	}
	fx, err := o.loadFixture()
	if err != nil {
		return nil, err
	}
	return scenario.FromFixture(fx).Fork(ctx, o.scenarioOptions(), at)
}

// Run forks, changes, re-runs and prints.
func (o *WhatIfOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.Scale != "" {
		return o.runScale(ctx)
	}
	if o.PodGroup != "" {
		return o.runPodGroup(ctx)
	}
	changes, err := o.changeFlags.build(o.flags)
	if err != nil {
		return err
	}
	if err := o.checkInputs(); err != nil {
		return err
	}
	forkingMemory()
	f, err := o.fork(ctx, scenario.At{Pod: o.Pod, Cycle: o.Cycle})
	if err != nil {
		return err
	}
	w, err := f.WhatIf(ctx, changes...)
	if err != nil {
		return o.memberHint(f.Cycle().Pod, err)
	}
	if err := o.sendTraces(ctx, f.Header(), changes, append([]*recorder.Cycle{w.After}, w.Later...)); err != nil {
		return err
	}
	switch o.Output {
	case "json", "yaml":
		return export.Write(o.streams.Out, o.Output, export.NewWhatIf(w, changeDocs(changes)))
	}
	fx, err := o.loadFixture()
	if err != nil {
		return err
	}
	t := text.New(o.streams.Out)
	t.WhatIf(fx.Name, changes, w)
	return t.Err()
}

// sendTraces sends the what-if's cycles as traces, with --otlp-endpoint,
// each marked with the changes that made it (schedscope.whatif), worded by
// the fields they touch: what a user wrote does not leave the machine.
func (o *WhatIfOptions) sendTraces(ctx context.Context, h recorder.Header, changes []recorder.Change, cycles []*recorder.Cycle) error {
	t, ok, err := o.otlp.target()
	if err != nil || !ok {
		return err
	}
	opts := o.otlp.options(t)
	words := make([]string, len(changes))
	for i, c := range changes {
		words[i] = narrate.ChangeFields(c)
	}
	opts.Wait, opts.WhatIf = true, strings.Join(words, "; ")
	exp, err := otel.New(ctx, opts)
	if err != nil {
		return err
	}
	h.Created = time.Now() // a what-if is traced anew each time it runs
	exp.Begin(h)
	for _, c := range cycles {
		exp.Cycle(c)
	}
	fmt.Fprintln(o.streams.ErrOut, exp.Close(ctx))
	return nil
}
