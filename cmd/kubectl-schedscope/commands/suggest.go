package commands

import (
	"context"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/text"
)

// SuggestOptions holds the flags of suggest.
type SuggestOptions struct {
	simOptions
	Pod string
	// PodGroup asks about a pod group instead of a pod.
	PodGroup string
	Cycle    int
	Node     string
	Budget   int
	Output   string
}

// NewCmdSuggest searches for the smallest changes that make a pod schedulable.
func NewCmdSuggest(streams genericiooptions.IOStreams) *cobra.Command {
	o := &SuggestOptions{simOptions: newSimOptions(streams)}
	cmd := &cobra.Command{
		Use:   "suggest -f FIXTURE (--pod NAME [--node NODE] [--budget N] | --pod-group NAME) [-o text|json|yaml]",
		Short: "Find single changes that make a pending pod schedulable, each confirmed by a re-run",
		Long: "suggest takes the pod's cycle, draws single changes from its diagnosis (every filter plugin on\n" +
			"every node): drop a nodeSelector key or a node affinity expression, tolerate a taint, uncordon a\n" +
			"node, lower a request to what a node has free, drop an affinity or spread constraint, evict the\n" +
			"pods preemption would evict, add a node like the closest miss. Nodes that fail on the fewest\n" +
			"plugins are tried first. Each change is re-run with the real scheduler on the state the cycle saw;\n" +
			"only changes the re-run confirmed are listed, smallest first, with the whatif command to see one.\n" +
			"With --node, it answers \"why not this node?\": only changes that put the pod there count.\n" +
			"With --pod-group (--feature-gates=GenericWorkload=true), it asks about a pod group that did not bind:\n" +
			"its gang's minCount lowered to the members its last cycle placed, or a node like one of the\n" +
			"cluster's added, each confirmed by running the fixture again, the group's cycle binding it.",
		Example: `  kubectl schedscope suggest -f fixtures/unschedulable.yaml --pod stuck
  kubectl schedscope suggest -f cluster.yaml --pod web --node n3
  kubectl schedscope suggest -f cluster.yaml --pod web --budget 60 -o json
  kubectl schedscope suggest -f gangs.yaml --pod-group infer --feature-gates=GenericWorkload=true`,
		Args: cobra.NoArgs,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Pod, "pod", "", "the pod (name, namespace/name, or a handle: deploy/web for its first replica left pending, deploy/web#3 for its third)")
	cmd.Flags().StringVar(&o.PodGroup, "pod-group", "", "the pod group (name, namespace/name, or pg/name) to find changes for, instead of a pod")
	cmd.Flags().IntVar(&o.Cycle, "cycle", 0, "the cycle to start from; default the pod's last")
	cmd.Flags().StringVar(&o.Node, "node", "", "ask why the pod did not go to this node: only changes that put it there count")
	cmd.Flags().IntVar(&o.Budget, "budget", engine.DefaultSuggestBudget, "how many re-runs the search may make")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "output format: text, json or yaml")
	return cmd
}

// Validate checks flag values.
func (o *SuggestOptions) Validate() error {
	switch {
	case o.Pod != "" && o.PodGroup != "":
		return errorf("--pod and --pod-group ask about different things: give one")
	case o.PodGroup != "" && (o.Node != "" || o.Cycle != 0):
		return errorf("--node and --cycle ask about a pod: --pod-group takes neither")
	case o.Pod == "" && o.PodGroup == "":
		return errorf("--pod is required: name the pod to find changes for (or --pod-group, a pod group)")
	}
	if o.Budget < 2 {
		return errorf("--budget must be at least 2 (one baseline re-run and one change), not %d", o.Budget)
	}
	if o.Cycle < 0 {
		return errorf("--cycle must be a cycle number (1 or more), not %d", o.Cycle)
	}
	return validOutput(o.Output)
}

// Run forks at the pod's cycle and searches.
func (o *SuggestOptions) Run(ctx context.Context) error {
	if o.PodGroup != "" {
		return o.runPodGroup(ctx)
	}
	if err := o.checkInputs(); err != nil {
		return err
	}
	forkingMemory()
	// Without --cycle, the pod's last cycle is where it stands now: one
	// run of the fixture finds it and forks there.
	f, err := o.fork(ctx, scenario.At{Pod: o.Pod, Cycle: o.Cycle, Last: true})
	if err != nil {
		return err
	}
	res, err := f.Suggest(ctx, engine.SuggestOptions{Node: o.Node, Budget: o.Budget})
	if err != nil {
		return err
	}
	fx, err := o.loadFixture()
	if err != nil {
		return err
	}
	recorded := f.Cycle()
	doc := export.Suggest{SuggestResult: res, Outcome: recorder.Summarize(recorded), Commands: []string{}}
	for _, s := range res.Suggestions {
		doc.Commands = append(doc.Commands, o.whatIfCommand(recorded, s.Change))
	}
	switch o.Output {
	case "json", "yaml":
		return export.Write(o.streams.Out, o.Output, doc)
	}
	t := text.New(o.streams.Out)
	t.Suggest(fx.Name, recorded, res, doc.Commands)
	return t.Err()
}

// whatIfCommand is the command line that shows a suggestion, made on the
// recorded cycle, as a what-if.
func (o *SuggestOptions) whatIfCommand(recorded *recorder.Cycle, c recorder.Change) string {
	args := o.commandArgs("whatif")
	pod := recorded.Pod.Namespace + "/" + recorded.Pod.Name
	if _, handle, _ := recorder.ParsePodHandle(o.Pod); handle {
		// The handle asked with names the same pod on the next run, even
		// of a changed fixture.
		pod = o.Pod
	}
	args = append(args, "--pod", shellQuote(pod))
	if o.Cycle != 0 || recorded.Attempt > 1 {
		args = append(args, "--cycle", strconv.Itoa(recorded.Seq))
	}
	ca := changeArgs(c)
	for i := 0; i+1 < len(ca); i += 2 {
		args = append(args, ca[i], shellQuote(ca[i+1]))
	}
	return strings.Join(args, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:@,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
