package commands

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/recorder/visible"
)

// CapacityOptions holds the flags of capacity.
type CapacityOptions struct {
	simOptions
	Workload string
	Output   string
	// Suggest searches what would let the first replica that does not fit
	// fit; Budget bounds the search's re-runs.
	Suggest bool
	Budget  int
	// Min, when above 0, makes the command fail when fewer replicas than
	// that fit in all: a gate for CI, as explain --exit-code is.
	Min int
	// PodGroup, when set, asks how many more copies of that pod group fit
	// instead (capacity_pod_group.go).
	PodGroup string
}

// capacityDocument is capacity's JSON output.
type capacityDocument = export.Capacity

// NewCmdCapacity answers how many more replicas of a workload fit.
func NewCmdCapacity(streams genericiooptions.IOStreams) *cobra.Command {
	o := &CapacityOptions{simOptions: newSimOptions(streams)}
	cmd := &cobra.Command{
		Use:   "capacity -f FIXTURE (KIND/NAME | --pod-group NAME) [-o text|json|yaml] [--min N]",
		Short: "How many more replicas of a workload, or copies of a pod group, fit, and what stops the next one",
		Long: "capacity runs the fixture again and again with the workload scaled up (1, 2, 4, ... more replicas),\n" +
			"each run the whole fixture with the real scheduler and the workload's controller, until a run leaves\n" +
			"a replica pending; it counts what that run placed and prints the scheduler's message for the replica\n" +
			"that did not fit. Nothing is computed by arithmetic. KIND is deploy, rs, sts, rc or job (a Job's\n" +
			"parallelism); NAME may be NAMESPACE/NAME. Then, as suggest does, it searches single changes\n" +
			"that would let that replica fit, each confirmed by re-running its cycle (--suggest=false skips it).\n" +
			"With --min N it exits 1, the reason on one line, when fewer than N replicas fit in all.\n\n" +
			"With --pod-group NAME (and --feature-gates=GenericWorkload=true) it asks the same of a pod group: how many\n" +
			"more whole copies of it (a PodGroup with its policy and minCount, and a copy of each member the fixture\n" +
			"lists) fit, 1, 2, 4, ... copies queued after the fixture's pods, each copy counted when its pod-group cycle\n" +
			"bound it in the run; it says which resource stopped the first copy that did not bind, and on which nodes.\n" +
			"--min N then counts the groups in all (the group and its copies); no suggestion search is made.",
		Example: `  kubectl schedscope capacity -f workloads deploy/web
  kubectl schedscope capacity -f cluster.yaml sts/prod/db -o json
  kubectl schedscope capacity -f cluster.yaml deploy/web --min 10 --suggest=false >/dev/null   # in CI: fail below 10
  kubectl schedscope capacity -f gang.yaml --feature-gates=GenericWorkload=true --pod-group train`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Workload = args[0]
			}
			return runE(o)(cmd, args)
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "output format: text, json or yaml")
	cmd.Flags().BoolVar(&o.Suggest, "suggest", true, "search what would let the first replica that does not fit fit")
	cmd.Flags().IntVar(&o.Budget, "budget", engine.DefaultSuggestBudget, "how many re-runs the suggestion search may make")
	cmd.Flags().IntVar(&o.Min, "min", 0, "exit 1 when fewer than this many replicas fit in all (0: never)")
	cmd.Flags().StringVar(&o.PodGroup, "pod-group", "", "the pod group (name, namespace/name, or pg/name) to count copies of, instead of a workload (--feature-gates=GenericWorkload=true)")
	return cmd
}

// Validate checks flag values.
func (o *CapacityOptions) Validate() error {
	switch {
	case o.PodGroup != "" && o.Workload != "":
		return errorf("ask about a workload (%s) or a pod group (--pod-group %s), not both", visible.String(o.Workload), visible.String(o.PodGroup))
	case o.PodGroup != "":
		if o.Min < 0 {
			return errorf("--min must be 0 or more, not %d", o.Min)
		}
		return validOutput(o.Output)
	case o.Workload == "":
		return errorf("name the workload as KIND/NAME (deploy/web), or a pod group with --pod-group NAME")
	}
	if _, _, _, ok := recorder.ParseWorkload(o.Workload); !ok {
		return errorf("want the workload as KIND/NAME or KIND/NAMESPACE/NAME (deploy/web, sts/prod/db), not %q", visible.String(o.Workload))
	}
	if o.Suggest && o.Budget < 2 {
		return errorf("--budget must be at least 2 (one baseline re-run and one change), not %d", o.Budget)
	}
	if o.Min < 0 {
		return errorf("--min must be 0 or more, not %d", o.Min)
	}
	return validOutput(o.Output)
}

// Run scales the workload up until a replica does not fit.
func (o *CapacityOptions) Run(ctx context.Context) error {
	if o.PodGroup != "" {
		return o.runPodGroup(ctx)
	}
	fx, err := o.wholeRuns()
	if err != nil {
		return err
	}
	// The library's capacity and suggest, on the fixture loaded as every
	// command loads it, under the process's gates (--feature-gates).
	sc := scenario.FromFixture(fx)
	opts := scenario.Options{ConfigPath: o.Config, Diagnostic: o.Diagnostic}
	res, err := sc.Capacity(ctx, opts, o.Workload)
	if err != nil {
		return err
	}
	doc := capacityDocument{CapacityResult: res}
	var next *scenario.Fork
	if o.Suggest && res.Stopped != "" {
		if next, err = sc.NextReplica(ctx, opts, res); err != nil {
			return err
		}
		if doc.Next, err = next.Suggest(ctx, engine.SuggestOptions{Budget: o.Budget}); err != nil {
			return err
		}
	}
	switch o.Output {
	case "json", "yaml":
		if err := export.Write(o.streams.Out, o.Output, doc); err != nil {
			return err
		}
		return o.gate(res)
	}
	pod := ""
	if next != nil {
		pod = next.Cycle().Pod.Name
	}
	t := text.New(o.streams.Out)
	t.Capacity(fx.Name, doc.CapacityResult, doc.Next, pod)
	if err := t.Err(); err != nil {
		return err
	}
	return o.gate(res)
}

// gate fails, with --min, when fewer replicas than asked fit, saying how
// many fit and what stopped the next one.
func (o *CapacityOptions) gate(res *engine.CapacityResult) error {
	fit := res.Replicas + res.More
	if res.Placed < res.Replicas {
		fit = res.Placed
	}
	if o.Min == 0 || fit >= o.Min {
		return nil
	}
	what := fmt.Sprintf("%s %s/%s", res.Kind, res.Namespace, res.Name)
	if res.Stopped == "" {
		// The search stopped at its limit before a replica was left.
		return errorf("--min %d: at least %d replicas of %s fit, but the search stops at %d more", o.Min, fit, what, res.Limit)
	}
	return errorf("--min %d: %d replica(s) of %s fit; replica %d stays pending: %s", o.Min, fit, what, fit+1, visible.String(res.Stopped))
}
