// Command kubectl-schedscope is a visual debugger for the Kubernetes scheduler,
// usable as a kubectl plugin (kubectl schedscope ...).
package main

import (
	"os"
	"path/filepath"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/commands"
	"github.com/schedscope/schedscope/engine/fixture"
)

func main() {
	commands.LimitMemory()
	// A large fixture is kept admitted under the user's cache directory, so
	// that the next question about the same snapshot does not load it again
	// (engine/fixture/cache.go). SCHEDSCOPE_NO_CACHE=1 turns that off.
	if os.Getenv("SCHEDSCOPE_NO_CACHE") == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			fixture.UseCache(filepath.Join(dir, "schedscope", "fixtures"))
		}
	}
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	os.Exit(commands.Execute(streams, os.Args[1:]))
}
