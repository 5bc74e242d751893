// Command kubectl-schedscope is a visual debugger for the Kubernetes scheduler,
// usable as a kubectl plugin (kubectl schedscope ...).
package main

import (
	"os"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/commands"
)

func main() {
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	os.Exit(commands.Execute(streams, os.Args[1:]))
}
