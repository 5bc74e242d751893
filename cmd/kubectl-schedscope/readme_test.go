package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/commands"
	"github.com/schedscope/schedscope/cmd/kubectl-schedscope/commands/help"
)

// needsACluster are the README's commands that read a real cluster or
// open the debugger: their flags are checked (--help), not run.
var needsACluster = []string{"live", "snapshot", "learn"}

// TestREADMECommandsRun runs every `kubectl schedscope …` line of README's
// shell blocks, in-process, from a scratch directory with the repository's
// paths made absolute: each exits 0. README stays a short tour (at most
// 250 lines) and links every help page.
func TestREADMECommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("schedules the README's fixtures")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(readme, []byte("\n")); n > 250 {
		t.Errorf("README is %d lines; a newcomer's tour is at most 250 (the reference is in help topics)", n)
	}
	topics, err := help.Topics()
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range topics {
		if !bytes.Contains(readme, []byte("cmd/kubectl-schedscope/commands/help/"+tp.Name+".md")) {
			t.Errorf("README does not link the help page %s", tp.Name)
		}
	}
	// Each command, and whether it reads what a cluster command before it
	// on its line wrote (snapshot -o F && explain -f F): then it is
	// checked as the cluster's are.
	type command struct {
		line         string
		afterCluster bool
	}
	var lines []command
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllSubmatch(readme, -1) {
		for _, line := range strings.Split(string(block[1]), "\n") {
			line, _, _ = strings.Cut(line, "#")
			cluster := false
			for _, c := range strings.Split(line, "&&") {
				if c = strings.TrimSpace(c); strings.HasPrefix(c, "kubectl schedscope ") {
					lines = append(lines, command{c, cluster})
					for _, n := range needsACluster {
						cluster = cluster || strings.HasPrefix(c, "kubectl schedscope "+n+" ")
					}
				}
			}
		}
	}
	if len(lines) < 8 {
		t.Fatalf("README has %d kubectl schedscope commands: %v", len(lines), lines)
	}
	t.Chdir(t.TempDir())
	for _, cmd := range lines {
		line := cmd.line
		args := strings.Fields(strings.TrimPrefix(line, "kubectl schedscope "))
		for i, a := range args {
			for _, dir := range []string{"fixtures/", "engine/"} {
				if strings.HasPrefix(a, dir) {
					args[i] = filepath.Join(root, a)
				}
			}
		}
		for _, c := range needsACluster {
			if args[0] == c || cmd.afterCluster {
				args = append(args, "--help")
				break
			}
		}
		var out, errOut bytes.Buffer
		code := commands.ExecuteContext(context.Background(), genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, args)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", line, code, strings.TrimSpace(errOut.String()))
		}
	}
}

// TestHelpTopics: `help TOPIC` prints each reference page whole, and the
// root's help lists every topic.
func TestHelpTopics(t *testing.T) {
	topics, err := help.Topics()
	if err != nil {
		t.Fatal(err)
	}
	if len(topics) < 10 {
		t.Fatalf("%d help topics", len(topics))
	}
	exec := func(args ...string) string {
		var out, errOut bytes.Buffer
		if code := commands.ExecuteContext(context.Background(), genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, args); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut.String())
		}
		return out.String()
	}
	list := exec("help")
	for _, tp := range topics {
		if !strings.Contains(list, tp.Name) || !strings.Contains(list, tp.Title) {
			t.Errorf("help does not list %s (%s)", tp.Name, tp.Title)
		}
		if got := exec("help", tp.Name); !strings.Contains(got, strings.TrimSpace(tp.Text)) {
			t.Errorf("help %s does not print its page whole:\n%.300s", tp.Name, got)
		}
	}
}
