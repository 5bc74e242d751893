package commands

import (
	"context"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder/visible"
)

// CapacityOptions holds the flags of capacity.
type CapacityOptions struct {
	simOptions
	Workload string
	Output   string
}

// NewCmdCapacity answers how many more replicas of a workload fit.
func NewCmdCapacity(streams genericiooptions.IOStreams) *cobra.Command {
	o := &CapacityOptions{simOptions: newSimOptions(streams)}
	cmd := &cobra.Command{
		Use:   "capacity -f FIXTURE KIND/NAME [-o text|json|yaml]",
		Short: "How many more replicas of a workload fit, and what stops the next one",
		Long: "capacity runs the fixture again and again with the workload scaled up (1, 2, 4, ... more replicas),\n" +
			"each run the whole fixture with the real scheduler and the workload's controller, until a run leaves\n" +
			"a replica pending; it counts what that run placed and prints the scheduler's message for the replica\n" +
			"that did not fit. Nothing is computed by arithmetic. KIND is deploy, rs, sts, rc or job (a Job's\n" +
			"parallelism); NAME may be NAMESPACE/NAME.",
		Example: `  kubectl schedscope capacity -f workloads deploy/web
  kubectl schedscope capacity -f cluster.yaml sts/prod/db -o json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Workload = args[0]
			return runE(o)(cmd, args)
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "output format: text, json or yaml")
	return cmd
}

// Validate checks flag values.
func (o *CapacityOptions) Validate() error {
	if _, _, _, ok := engine.ParseWorkload(o.Workload); !ok {
		return errorf("want the workload as KIND/NAME or KIND/NAMESPACE/NAME (deploy/web, sts/prod/db), not %q", visible.String(o.Workload))
	}
	return validOutput(o.Output)
}

// Run scales the workload up until a replica does not fit.
func (o *CapacityOptions) Run(ctx context.Context) error {
	fx, opts, err := o.wholeRuns()
	if err != nil {
		return err
	}
	kind, ns, name, _ := engine.ParseWorkload(o.Workload)
	res, err := engine.Capacity(ctx, fx, opts, kind, ns, name)
	if err != nil {
		return err
	}
	switch o.Output {
	case "json", "yaml":
		return writeDocument(o.streams.Out, o.Output, res)
	}
	t := newTextWriter(o.streams.Out)
	t.printf("capacity: %s %s/%s in %s\n", res.Kind, res.Namespace, res.Name, fx.Name)
	t.printf("asks for %d, %d placed\n", res.Replicas, res.Placed)
	switch {
	case res.Placed < res.Replicas:
		t.printf("no more fit: it does not fit as it is; a replica stays pending: %s\n", visible.String(res.Stopped))
	case res.Limit > 0:
		t.printf("at least %d more fit (%d in all): the search stops at %d more\n", res.More, res.Replicas+res.More, res.Limit)
	default:
		t.printf("%d more fit (%d in all); replica %d stays pending: %s\n", res.More, res.Replicas+res.More, res.Replicas+res.More+1, visible.String(res.Stopped))
	}
	t.printf("found by %d run(s) of the fixture, at %s replicas\n", len(res.Runs), joinInts(res.Runs))
	return t.err
}

func joinInts(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}
