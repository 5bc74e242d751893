package commands

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	v1 "k8s.io/api/core/v1"

	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/recorder/export/otel"
)

// completeFlagValues registers, on every command of the tree that has the
// flag, what its values complete to: the output formats the command
// writes, the diagnostic and arrival modes, fixture files and embedded
// fixtures, and the pods and nodes of the fixture -f names (read when Tab
// is pressed, never scheduled).
func completeFlagValues(root *cobra.Command) {
	fixed := func(values ...string) cobra.CompletionFunc {
		return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return withPrefix(values, toComplete), cobra.ShellCompDirectiveNoFileComp
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		complete := map[string]cobra.CompletionFunc{
			"diagnostic":  fixed("always", "unschedulable", "never"),
			"arrival":     fixed(arrivalSequential, arrivalBurst),
			"filename":    completeFixtures,
			"pod":         completeObjects(podNames),
			"node":        completeObjects(nodeNames),
			"remove-node": completeObjects(nodeNames),
			"copy-node":   completeObjects(nodeNames),
			"patch-node":  completeObjects(func(fx *fixture.Fixture) []string { return suffixed(nodeNames(fx), "=") }),
			"evict":       completeObjects(placedPods),
			// Trace export (sim, record, live, whatif, export, deploy).
			"otlp-protocol": fixed(otel.ProtocolGRPC, otel.ProtocolHTTP),
		}
		switch c.Name() {
		case "explain", "replay":
			complete["output"] = fixed("text", "json", "yaml", "markdown", "html")
		case "live":
			complete["output"] = fixed("text", "json")
		case "record", "snapshot":
		default:
			complete["output"] = fixed("text", "json", "yaml")
		}
		for name, f := range complete {
			if c.Flags().Lookup(name) != nil {
				_ = c.RegisterFlagCompletionFunc(name, f)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeFixtures offers the embedded fixtures by name and the manifests
// and directories that start with what is typed.
func completeFixtures(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	out := withPrefix(embeddedNames(), toComplete)
	directive := cobra.ShellCompDirectiveNoFileComp
	paths, _ := filepath.Glob(toComplete + "*")
	for _, p := range paths {
		st, err := os.Stat(p)
		switch {
		case err != nil:
		case st.IsDir():
			// A directory is a fixture too, or leads to one: no space after it.
			out = append(out, p+string(filepath.Separator))
			directive |= cobra.ShellCompDirectiveNoSpace
		case slices.Contains([]string{".yaml", ".yml", ".json"}, filepath.Ext(p)):
			out = append(out, p)
		}
	}
	return out, directive
}

// completeObjects offers names the fixture that -f names holds, as list
// gives them.
func completeObjects(list func(*fixture.Fixture) []string) cobra.CompletionFunc {
	return func(c *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		name, _ := c.Flags().GetString("filename")
		if name == "-" {
			return nil, cobra.ShellCompDirectiveNoFileComp // standard input is read once
		}
		o := &simOptions{Fixture: name}
		fx, err := o.readFixture()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return withPrefix(list(fx), toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// podNames are the fixture's pending pods, by name (namespace/name when
// the name alone is taken in two namespaces).
func podNames(fx *fixture.Fixture) []string {
	return names(fx.Pending)
}

// placedPods are the pods bound from the start, namespace/name, as --evict
// takes them.
func placedPods(fx *fixture.Fixture) []string {
	var out []string
	for _, o := range fx.Objects {
		if p, ok := o.(*v1.Pod); ok && p.Spec.NodeName != "" {
			out = append(out, p.Namespace+"/"+p.Name)
		}
	}
	return out
}

func names(pods []*v1.Pod) []string {
	seen := map[string]int{}
	for _, p := range pods {
		seen[p.Name]++
	}
	var out []string
	for _, p := range pods {
		if seen[p.Name] > 1 {
			out = append(out, p.Namespace+"/"+p.Name)
		} else {
			out = append(out, p.Name)
		}
	}
	return out
}

// nodeNames are the fixture's nodes.
func nodeNames(fx *fixture.Fixture) []string {
	var out []string
	for _, o := range fx.Objects {
		if n, ok := o.(*v1.Node); ok {
			out = append(out, n.Name)
		}
	}
	return out
}

func suffixed(s []string, suffix string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x + suffix
	}
	return out
}

// withPrefix keeps the values that start with what is typed.
func withPrefix(values []string, typed string) []string {
	var out []string
	for _, v := range values {
		if strings.HasPrefix(v, typed) {
			out = append(out, v)
		}
	}
	return out
}
