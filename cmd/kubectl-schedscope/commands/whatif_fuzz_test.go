package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/pflag"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/scenario"
	"github.com/schedscope/schedscope/engine/scenario/scenariohook"
)

// fuzzFork is the default fixture's cycle of pod web, forked once for
// every fuzz input.
var fuzzFork = sync.OnceValues(func() (*engine.Fork, error) {
	o := &simOptions{Diagnostic: string(engine.DiagnosticUnschedulable)}
	var f *engine.Fork
	ctx := scenariohook.With(context.Background(), &scenariohook.Hooks{Forked: func(g *engine.Fork) { f = g }})
	_, err := o.fork(ctx, scenario.At{Pod: "web"})
	return f, err
})

// changeFlagNames are the what-if flags FuzzChangeFlags sets, one per
// input; those whose value is a file get the input written to one.
var changeFlagNames = []string{
	"patch-pod", "patch-pod@", "patch-node", "patch-node@", "pod-file", "add-node",
	"set-weight", "disable", "enable", "copy-node", "remove-node", "evict",
}

// FuzzChangeFlags hands each what-if change parser arbitrary values, from
// the command line and from files (--patch-pod @FILE, --pod-file,
// --add-node): a change is built and applied to a fork of a real cycle and
// re-run, or refused with an error that stays bounded. It must never panic.
func FuzzChangeFlags(f *testing.F) {
	seeds := []struct {
		flag  int
		value string
	}{
		{0, `{"spec":{"nodeSelector":{"disk":"ssd"}}}`},
		{1, "metadata:\n  labels:\n    team: ml\n"},
		{2, `{"spec":{"unschedulable":true}}`},
		{3, "spec:\n  taints:\n  - {key: a, effect: NoSchedule}\n"},
		{4, "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: default}\nspec:\n  containers: [{name: c, image: nginx}]\n"},
		{5, "apiVersion: v1\nkind: Node\nmetadata: {name: extra}\nstatus:\n  allocatable: {cpu: '4', memory: 8Gi, pods: '110'}\n"},
		{6, "NodeResourcesFit=5"},
		{7, "NodeResourcesFit:score"},
		{8, "NodeResourcesFit:score"},
		{9, "node-a=node-z"},
		{10, "node-b"},
		{11, "default/cache"},
		{0, `{"spec":{"containers":[{"name":"nginx","resources":{"requests":{"cpu":"-1"}}}]}}`},
		{2, `{"metadata":{"name":"renamed"}}`},
		{0, "[[[[[[[[[[[["},
	}
	for _, s := range seeds {
		f.Add(uint8(s.flag), s.value)
	}
	fork, err := fuzzFork()
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		flag := changeFlagNames[int(which)%len(changeFlagNames)]
		file := filepath.Join(dir, "value")
		if err := os.WriteFile(file, []byte(value), 0o600); err != nil {
			t.Fatal(err)
		}
		name, v := strings.TrimSuffix(flag, "@"), value
		switch flag {
		case "patch-pod@":
			v = "@" + file
		case "patch-node":
			v = "node-a=" + value
		case "patch-node@":
			v = "node-a=@" + file
		case "pod-file", "add-node":
			v = file
		}
		var c changeFlags
		fs := pflag.NewFlagSet("whatif", pflag.ContinueOnError)
		c.addFlags(fs)
		if err := fs.Set(name, v); err != nil {
			t.Fatalf("--%s: %v", name, err)
		}
		bounded := func(err error) {
			t.Helper()
			// Upstream validation may quote a value once or twice; ours
			// quote it bounded.
			if limit := 8<<10 + 3*len(value); len(err.Error()) > limit {
				t.Fatalf("--%s: an error of %d bytes for a value of %d: %.200q", flag, len(err.Error()), len(value), err.Error())
			}
		}
		changes, err := c.build(fs)
		if err != nil {
			bounded(err)
			return
		}
		changed, err := fork.With(changes...)
		if err != nil {
			bounded(err)
			return
		}
		if _, err := changed.Run(context.Background()); err != nil {
			bounded(err)
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatalf("--%s: a re-run failed with an empty error", flag)
			}
		}
	})
}
