// Package app is kubectl-schedscope's entry, for a main.go that builds
// schedscope with out-of-tree scheduler plugins, as kube-scheduler's own app
// package is for a kube-scheduler built with them:
//
//	func main() {
//		os.Exit(app.Main(
//			engine.WithPlugin(zonebudget.Name, zonebudget.New),
//			engine.WithPluginArgs(zonebudget.AddToScheme),
//		))
//	}
//
// The binary is the same kubectl plugin, every command included.
package app

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/commands"
	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/fixture"
)

// Main runs kubectl-schedscope on the process's arguments and standard
// streams, with every engine its commands build (explain, sim, record,
// what-if forks, suggest, diff, capacity, live) scheduling with exts, and
// returns the exit code.
func Main(exts ...engine.Extension) int {
	commands.LimitMemory()
	if err := engine.Use(exts...); err != nil {
		fmt.Fprintln(os.Stderr, "error: "+err.Error())
		return 1
	}
	// A large fixture is kept admitted under the user's cache directory, so
	// that the next question about the same snapshot does not load it again
	// (engine/fixture/cache.go). SCHEDSCOPE_NO_CACHE=1 turns that off.
	if os.Getenv("SCHEDSCOPE_NO_CACHE") == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			fixture.UseCache(filepath.Join(dir, "schedscope", "fixtures"))
		}
	}
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	return commands.Execute(streams, os.Args[1:])
}
