// Command kubectl-schedscope is a visual debugger for the Kubernetes scheduler,
// usable as a kubectl plugin (kubectl schedscope ...). A schedscope with
// out-of-tree plugins has a main.go like this one (package app).
package main

import (
	"os"

	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/app"
)

func main() {
	os.Exit(app.Main())
}
