package commands

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/report"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/source"
	"github.com/schedscope/schedscope/recorder/visible"
)

// ExplainOptions holds the flags of explain.
type ExplainOptions struct {
	simOptions
	Pod string
	// PodGroup explains one pod group's cycles (namespace/name, name, or pg/name).
	PodGroup string
	Output   string
	// ExitCode makes the command fail when a pod ends without a node or
	// the run lost an object (recorder.Lost).
	ExitCode bool
	lost     []recorder.Lost
	// shortfalls are the numbers behind each cycle's resource rejections.
	shortfalls map[int]*recorder.Shortfalls
}

// NewCmdExplain prints every scheduling cycle of a fixture, headlessly.
func NewCmdExplain(streams genericiooptions.IOStreams) *cobra.Command {
	o := &ExplainOptions{simOptions: newSimOptions(streams)}
	cmd := &cobra.Command{
		Use:   "explain [-f FIXTURE] [--config FILE] [--pod NAME] [-o text|json|yaml] [--exit-code]",
		Short: "Schedule a fixture and explain every scheduling cycle",
		Long: "explain schedules a fixture headlessly and walks through every cycle, phase by phase.\n" +
			"-o json prints one document described by recorder/schema/explain.schema.json: node names, expanded\n" +
			"score lists, durations such as \"1.5ms\".",
		Example: `  kubectl schedscope explain                      # the embedded default fixture
  kubectl schedscope explain -f cluster.yaml --pod web
  kubectl schedscope explain -f cluster.yaml -o json | jq '.cycles[] | {pod: .pod.name, node: .outcome.node}'
  kubectl schedscope explain -f cluster.yaml --exit-code >/dev/null   # in CI: fail if a pod stays pending`,
		Args: cobra.NoArgs,
		RunE: runE(o),
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Pod, "pod", "", "only show cycles of this pod (name, namespace/name, or a controller's pod by handle: deploy/web is its first replica left pending, deploy/web#3 its third; a bare workload handle explains all its replicas)")
	cmd.Flags().StringVar(&o.PodGroup, "pod-group", "", "only show the pod-group cycles of this pod group (namespace/name, name, or pg/name; --feature-gates=GenericWorkload=true): members × nodes with the tentative placements, why minCount was not met, what was reverted")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "output format: text, json, yaml or markdown (tables to paste into an incident document or an issue)")
	cmd.Flags().BoolVar(&o.ExitCode, "exit-code", false, "exit 1 when a pod (of --pod, if given) ends without a node")
	return cmd
}

// Validate checks flag values.
func (o *ExplainOptions) Validate() error {
	if o.Pod != "" && o.PodGroup != "" {
		return errorf("--pod and --pod-group cannot be used together")
	}
	return validCyclesOutput(o.Output)
}

// Run schedules the fixture and prints the cycles.
func (o *ExplainOptions) Run(ctx context.Context) error {
	var header recorder.Header
	var cycles []*recorder.Cycle
	var groups []*recorder.PodGroupCycle
	var queue []*recorder.QueueEvent
	var never []recorder.PodState
	var problems []error
	var warnings []string
	var unused *unusedProblem
	var cluster *recorder.ClusterState
	handle, isHandle, err := recorder.ParsePodHandle(o.Pod)
	if err != nil {
		return errorf("--pod %s", visible.String(err.Error()))
	}
	if o.Pod != "" && !isHandle {
		// One pod's story: the run stops once the rest of it cannot
		// change that story (engine.Options.Story).
		o.story = func(p *v1.Pod) bool { return p.Name == o.Pod || p.Namespace+"/"+p.Name == o.Pod }
	}
	err = consume(ctx, o.source, func(ev source.Event) error {
		switch {
		case ev.Header != nil:
			header = *ev.Header
		case ev.Cycle != nil:
			cycles = append(cycles, ev.Cycle)
		case ev.Queue != nil:
			queue = append(queue, ev.Queue)
		case ev.PodGroup != nil:
			groups = append(groups, ev.PodGroup)
		case ev.NeverAttempted != nil:
			never = ev.NeverAttempted
		case ev.Cluster != nil:
			cluster = ev.Cluster
		case errors.As(ev.Problem, &unused):
			warnings = append(warnings, unused.Error())
		case ev.Problem != nil:
			problems = append(problems, ev.Problem)
		}
		return nil
	})
	if err != nil {
		return err
	}
	fx := o.source.fixture()
	// One line for each error upstream code logged, however often, and
	// one warning for each object the run lost, with its cause.
	problems = onceEach(problems)
	texts := make([]string, len(problems))
	for i, p := range problems {
		texts[i] = p.Error()
		if ue := (*engine.UpstreamLogError)(nil); errors.As(p, &ue) && ue.Err != nil {
			texts[i] = ue.Err.Error() // the controller's own words
		}
	}
	o.lost = cluster.Lost(texts)
	for _, l := range o.lost {
		warnings = append(warnings, narrate.Lost(l))
	}
	sortCycles(cycles)
	o.shortfalls = recorder.RunShortfalls(cycles)
	pods := recorder.GroupPodStates(cycles, groups, never, queue)
	// What explain prints for the user to run next names a controller's
	// pod by its handle (deploy/web#2), which a changed fixture keeps.
	handles := recorder.PodHandles(cycles)
	suggest := func(pod string) string {
		if h, ok := handles[pod]; ok {
			pod = h
		}
		return o.suggestCommand(pod)
	}
	if o.PodGroup != "" {
		return o.printPodGroup(header, fx, warnings, problems, cycles, groups, queue, pods)
	}
	if isHandle && handle.Replica == 0 {
		return o.printWorkload(header, fx, warnings, problems, cycles, pods, cluster, handle, suggest)
	}
	if isHandle {
		name, err := handle.Resolve(cycles)
		if err != nil {
			return errorf("%s: %v", fx.Name, err)
		}
		o.Pod = name
	}
	if o.Pod != "" {
		var kept []recorder.PodState
		for _, p := range pods {
			if p.Pod.Name == o.Pod || p.Pod.Key() == o.Pod {
				kept = append(kept, p)
			}
		}
		if len(kept) == 0 {
			// No such pod: podCycles words the error with the pods there are.
			_, err := podCycles(cycles, o.Pod, fx.Name)
			return err
		}
		pods = kept
		cycles, _ = podCycles(cycles, o.Pod, fx.Name)
		groups = memberGroups(groups, cycles)
	}
	out := report.Cycles{Groups: groups, Header: header, Source: "fixture " + fx.Name, Warnings: append(slices.Clone(fx.Warnings), warnings...), Problems: problems, Cycles: cycles, Pods: pods, Story: o.Pod != "", Cluster: cluster, Suggest: suggest, Shortfalls: o.shortfalls}
	if n := o.source.stoppedEarly(); n > 0 {
		out.Stopped = fmt.Sprintf("the run stopped once nothing left could change %s's story: the %d pending pod(s) after it did not arrive", visible.String(o.Pod), n)
	}
	return o.finish(out, problems, pods)
}

// finish prints out, the problems (in text) and, with --exit-code, fails
// when a pod ended without a node.
func (o *ExplainOptions) finish(out report.Cycles, problems []error, pods []recorder.PodState) error {
	if err := out.Print(o.streams.Out, o.Output); err != nil {
		return err
	}
	if o.Output == "text" {
		// JSON and YAML list them under problems.
		for _, p := range problems {
			fmt.Fprintf(o.streams.ErrOut, "problem: %s\n", visible.String(p.Error()))
		}
	}
	if o.ExitCode && len(o.lost) > 0 {
		return errorf("the run lost %d object(s): %s", len(o.lost), visible.String(narrate.Lost(o.lost[0])))
	}
	if o.ExitCode {
		var stuck []string
		for _, p := range pods {
			if !recorder.Placed(p.State) {
				stuck = append(stuck, visible.String(fmt.Sprintf("%s (%s)", p.Pod.Key(), p.State)))
			}
		}
		if len(stuck) > 0 {
			return errorf("%d pod(s) ended without a node: %s", len(stuck), listSome(stuck, 20))
		}
	}
	return nil
}

// printWorkload explains one workload's pods: their cycles, where they
// went, and why those left pending are.
func (o *ExplainOptions) printWorkload(header recorder.Header, fx *fixture.Fixture, warnings []string, problems []error,
	cycles []*recorder.Cycle, pods []recorder.PodState, cluster *recorder.ClusterState, h recorder.PodHandle, suggest func(string) string) error {
	kind, ns, name := h.Kind, h.Namespace, h.Name
	mine := func(p recorder.PodRef) bool {
		return p.Owner != nil && p.Owner.Kind == kind && p.Owner.Name == name && p.Namespace == ns
	}
	var keptPods []recorder.PodState
	for _, p := range pods {
		if mine(p.Pod) {
			keptPods = append(keptPods, p)
		}
	}
	var keptCycles []*recorder.Cycle
	for _, c := range cycles {
		if mine(c.Pod) {
			keptCycles = append(keptCycles, c)
		}
	}
	var st *recorder.ClusterState
	var others []string
	if cluster != nil {
		st = &recorder.ClusterState{Workloads: []recorder.WorkloadState{}, Budgets: []recorder.BudgetState{}, Claims: []recorder.ClaimState{}}
		for _, w := range cluster.Workloads {
			if w.Kind == kind && w.Namespace == ns && w.Name == name {
				st.Workloads = append(st.Workloads, w)
			} else {
				others = append(others, visible.String(w.Kind+"/"+w.Name))
			}
		}
	}
	if len(keptPods) == 0 && (st == nil || len(st.Workloads) == 0) {
		if len(others) == 0 {
			return errorf("no %s %s/%s in %s: it holds no workload", kind, ns, name, fx.Name)
		}
		return errorf("no %s %s/%s in %s; its workloads are %s", kind, ns, name, fx.Name, listSome(others, 20))
	}
	out := report.Cycles{Header: header, Source: "fixture " + fx.Name, Warnings: append(slices.Clone(fx.Warnings), warnings...),
		Problems: problems, Cycles: keptCycles, Pods: keptPods, Cluster: st, Suggest: suggest, Shortfalls: o.shortfalls}
	return o.finish(out, problems, keptPods)
}

// onceEach keeps the first of each problem, those alike but for a
// generated name (a pod's, as a controller retrying a sync that cannot
// succeed makes one per try) counted in it.
func onceEach(problems []error) []error {
	count := map[string]int{}
	var out []error
	for _, p := range problems {
		key := generatedName.ReplaceAllString(p.Error(), "-")
		if count[key] == 0 {
			out = append(out, p)
		}
		count[key]++
	}
	for i, p := range out {
		if n := count[generatedName.ReplaceAllString(p.Error(), "-")]; n > 1 {
			out[i] = repeatedProblem{p, n - 1}
		}
	}
	return out
}

// generatedName matches the suffix kube-apiserver's name generator adds
// (five characters of its alphabet) at the end of a name.
var generatedName = regexp.MustCompile(`-[` + recorder.GeneratedSuffix + `]{5}\b`)

// repeatedProblem is a problem reported n more times, alike.
type repeatedProblem struct {
	error
	n int
}

func (r repeatedProblem) Error() string {
	return fmt.Sprintf("%s (and %d more like it)", r.error.Error(), r.n)
}

func (r repeatedProblem) Unwrap() error { return r.error }
