package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/schedscope/schedscope"

// The layering of the repository, as README's "How the code is laid out"
// states it: data flows one way, engine → recorder → tui, and cmd wires
// them; only engine imports Kubernetes' own tree.
//
// knownExceptions are edges the rules forbid that main still has, each to
// go with the issue named; the test fails when one disappears, so that the
// list shrinks with the code.
var knownExceptions = map[string]string{}

// layeringProblems checks a package graph (each package with the
// packages it imports directly, deps with every package it depends on)
// against the rules and returns one line per broken rule.
func layeringProblems(imports, deps map[string][]string) []string {
	var out []string
	in := func(pkg, dir string) bool {
		return pkg == module+"/"+dir || strings.HasPrefix(pkg, module+"/"+dir+"/")
	}
	for pkg, ds := range deps {
		for _, d := range ds {
			switch {
			case (in(pkg, "recorder") || in(pkg, "tui")) && (strings.HasPrefix(d, "k8s.io/") || strings.HasPrefix(d, "sigs.k8s.io/")):
				out = append(out, fmt.Sprintf("%s depends on %s: recorder and tui import nothing of Kubernetes", pkg, d))
			case in(pkg, "recorder") && (in(d, "engine") || in(d, "tui") || in(d, "cmd")):
				out = append(out, fmt.Sprintf("%s depends on %s: recorder is the data model, below engine, tui and cmd", pkg, d))
			case in(pkg, "tui") && (in(d, "engine") || in(d, "cmd")):
				out = append(out, fmt.Sprintf("%s depends on %s: tui reads recordings, never the engine or the commands", pkg, d))
			case in(pkg, "engine") && (in(d, "tui") || in(d, "cmd")):
				out = append(out, fmt.Sprintf("%s depends on %s: the engine knows nothing of who shows it", pkg, d))
			}
		}
	}
	for pkg, is := range imports {
		for _, d := range is {
			edge := pkg + " -> " + d
			if _, known := knownExceptions[edge]; known {
				continue
			}
			switch {
			case !in(pkg, "engine") && strings.HasPrefix(d, "k8s.io/kubernetes/"):
				out = append(out, fmt.Sprintf("%s imports %s: only engine imports k8s.io/kubernetes", pkg, d))
			case in(pkg, "tui/pages") && in(d, "tui/pages") && pkg != d:
				out = append(out, fmt.Sprintf("%s imports %s: a page never imports another page", pkg, d))
			}
		}
	}
	slices.Sort(out)
	return out
}

// goList reads the module's package graph: each package's direct
// imports and its dependencies, tests' imports included.
func goList(t *testing.T) (imports, deps map[string][]string) {
	t.Helper()
	imports, deps = map[string][]string{}, map[string][]string{}
	cmd := exec.Command("go", "list", "-test", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}}\t{{join .Deps \" \"}}", module+"/...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("go list wrote %q", line)
		}
		pkg := f[0]
		if i := strings.Index(pkg, " ["); i >= 0 {
			pkg = pkg[:i] // a package as compiled for its tests
		}
		// engine/e2e holds end-to-end tests only: they drive the whole
		// product, commands included.
		if strings.HasSuffix(pkg, ".test") || pkg == module+"/engine/e2e" {
			continue
		}
		imports[pkg] = append(imports[pkg], strings.Fields(f[1])...)
		deps[pkg] = append(deps[pkg], strings.Fields(f[2])...)
	}
	return imports, deps
}

// TestLayering: the repository's packages keep the layering, and the
// check finds a forbidden import planted in the graph it reads.
func TestLayering(t *testing.T) {
	imports, deps := goList(t)
	if len(imports) < 20 {
		t.Fatalf("go list found %d packages", len(imports))
	}
	if problems := layeringProblems(imports, deps); len(problems) > 0 {
		t.Errorf("the layering is broken:\n%s", strings.Join(problems, "\n"))
	}
	for edge, why := range knownExceptions {
		from, to, _ := strings.Cut(edge, " -> ")
		if !slices.Contains(imports[from], to) {
			t.Errorf("%s is gone (%s): remove it from knownExceptions", edge, why)
		}
	}
	planted := []struct{ from, to, says string }{
		{module + "/recorder", "k8s.io/api/core/v1", "recorder and tui import nothing of Kubernetes"},
		{module + "/tui/components/nodes", module + "/engine", "tui reads recordings"},
		{module + "/engine/live", module + "/tui", "the engine knows nothing of who shows it"},
		{module + "/recorder/narrate", module + "/cmd/kubectl-schedscope/commands", "recorder is the data model"},
		{module + "/cmd/kubectl-schedscope/commands", "k8s.io/kubernetes/pkg/scheduler", "only engine imports k8s.io/kubernetes"},
		{module + "/tui/pages/cyclepage", module + "/tui/pages/whatif", "a page never imports another page"},
	}
	for _, p := range planted {
		im, de := map[string][]string{}, map[string][]string{}
		for k, v := range imports {
			im[k] = slices.Clone(v)
		}
		for k, v := range deps {
			de[k] = slices.Clone(v)
		}
		im[p.from] = append(im[p.from], p.to)
		de[p.from] = append(de[p.from], p.to)
		problems := layeringProblems(im, de)
		if len(problems) == 0 || !strings.Contains(strings.Join(problems, "\n"), p.says) {
			t.Errorf("%s importing %s: the check said %q, want a line saying %q", p.from, p.to, problems, p.says)
		}
	}
}

// debuggerFiles are the files of the commands package that start the
// debugger or serve it (whatif_tui.go re-runs its what-ifs,
// whatif_pod_group_tui.go runs a pod group's); every other file is a headless command's or shared, and
// imports no TUI package (the event protocol is recorder/source).
var debuggerFiles = []string{"learn.go", "live.go", "replay.go", "replay_marks.go", "sim.go", "simulate.go", "whatif_tui.go", "whatif_pod_group_tui.go"}

// tuiImportProblems names each file of imports (file → its imports) that
// imports a TUI package and is not one of debuggerFiles.
func tuiImportProblems(imports map[string][]string) []string {
	var out []string
	for file, is := range imports {
		for _, i := range is {
			if (i == module+"/tui" || strings.HasPrefix(i, module+"/tui/")) && !slices.Contains(debuggerFiles, file) {
				out = append(out, fmt.Sprintf("commands/%s imports %s: a headless command imports no TUI package", file, i))
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestHeadlessCommandsImportNoTUI: only the files that start the debugger
// import it; the check finds a planted import.
// commandsImports reads the imports of each file of the commands package,
// tests left out (file → its imports).
func commandsImports(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("commands", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range ast.Imports {
			path, _ := strconv.Unquote(i.Path.Value)
			imports[filepath.Base(f)] = append(imports[filepath.Base(f)], path)
		}
	}
	return imports
}

func TestHeadlessCommandsImportNoTUI(t *testing.T) {
	imports := commandsImports(t)
	if len(imports) < 20 || !slices.Contains(imports["sim.go"], module+"/tui") {
		t.Fatalf("read the imports of %d files; sim.go's: %v", len(imports), imports["sim.go"])
	}
	if problems := tuiImportProblems(imports); len(problems) > 0 {
		t.Errorf("%s", strings.Join(problems, "\n"))
	}
	imports["explain.go"] = append(imports["explain.go"], module+"/tui/components/nodes")
	if problems := tuiImportProblems(imports); len(problems) != 1 || !strings.Contains(problems[0], "commands/explain.go imports") {
		t.Errorf("a planted import in explain.go: the check said %q", problems)
	}
}

// rendererParts are the parts of recorder/export's renderers: the tables
// they share and the Markdown and HTML writers. A command prints a
// recording through recorder/export/report (the format an -o names),
// recorder/export/text, recorder/export (JSON and YAML) or
// recorder/export/otel, and never lays out a document itself.
var rendererParts = []string{module + "/recorder/export/document", module + "/recorder/export/html", module + "/recorder/export/markdown", module + "/recorder/table"}

// rendererImportProblems names each file of imports (file → its imports)
// that imports one of rendererParts.
func rendererImportProblems(imports map[string][]string) []string {
	var out []string
	for file, is := range imports {
		for _, i := range is {
			if slices.Contains(rendererParts, i) {
				out = append(out, fmt.Sprintf("commands/%s imports %s: a command prints through recorder/export/report, text, export or otel, not a renderer's parts", file, i))
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestCommandsPrintThroughTheRenderers: the commands (their tests aside,
// which compare every renderer) import no renderer's parts; the check finds
// a planted import.
func TestCommandsPrintThroughTheRenderers(t *testing.T) {
	imports := commandsImports(t)
	if !slices.Contains(imports["explain.go"], module+"/recorder/export/report") {
		t.Fatalf("explain.go's imports are %v; want recorder/export/report among them", imports["explain.go"])
	}
	if problems := rendererImportProblems(imports); len(problems) > 0 {
		t.Errorf("%s", strings.Join(problems, "\n"))
	}
	imports["replay.go"] = append(imports["replay.go"], module+"/recorder/export/markdown")
	if problems := rendererImportProblems(imports); len(problems) != 1 || !strings.Contains(problems[0], "commands/replay.go imports") {
		t.Errorf("a planted import in replay.go: the check said %q", problems)
	}
}
