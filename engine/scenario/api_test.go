package scenario

import (
	"bytes"
	"flag"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/api.txt from the package's exported surface")

// The package's exported surface (every exported name's declaration, as go
// doc -all shows it, without the comments) is testdata/api.txt: a change to
// the API is made on purpose, with -update, and shows in review.
func TestAPIDoesNotChangeByAccident(t *testing.T) {
	got, err := exportedSurface(".")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "api.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestAPIDoesNotChangeByAccident -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("the exported API changed (-testdata/api.txt +package); if on purpose, run with -update:\n%s", diff)
	}
}

// exportedSurface lists the exported declarations of the package in dir,
// in go doc's order: constants, variables, functions, then each type with
// its constructors and methods.
func exportedSurface(dir string) (string, error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	for _, pkg := range pkgs {
		d := doc.New(pkg, "github.com/schedscope/schedscope/engine/scenario", 0)
		b.WriteString("package " + d.Name + "\n")
		cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
		print := func(node ast.Node) {
			// The comments are go doc's to show; the golden is the surface.
			ast.Inspect(node, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Field:
					n.Doc, n.Comment = nil, nil
				case *ast.ValueSpec:
					n.Doc, n.Comment = nil, nil
				case *ast.TypeSpec:
					n.Doc, n.Comment = nil, nil
				}
				return true
			})
			b.WriteString("\n")
			cfg.Fprint(&b, fset, node)
			b.WriteString("\n")
		}
		decl := func(g *ast.GenDecl) {
			g.Doc = nil
			print(g)
		}
		fn := func(f *doc.Func) {
			f.Decl.Doc, f.Decl.Body = nil, nil
			print(f.Decl)
		}
		for _, v := range d.Consts {
			decl(v.Decl)
		}
		for _, v := range d.Vars {
			decl(v.Decl)
		}
		for _, f := range d.Funcs {
			fn(f)
		}
		for _, ty := range d.Types {
			decl(ty.Decl)
			for _, v := range ty.Consts {
				decl(v.Decl)
			}
			for _, f := range ty.Funcs {
				fn(f)
			}
			for _, f := range ty.Methods {
				fn(f)
			}
		}
	}
	return b.String(), nil
}
