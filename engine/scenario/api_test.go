package scenario

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	pathpkg "path"
	"path/filepath"
	"sort"
	"strconv"
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
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("the exported API changed (-testdata/api.txt +package); if on purpose, run with -update:\n%s", diff)
	}
}

// module is the module this package is in; an alias into one of its
// packages is followed there (the package's directory is found from here).
const module = "github.com/schedscope/schedscope"

// exportedSurface lists the exported declarations of the package in dir,
// in go doc's order: constants, variables, functions, then each type with
// its constructors and methods. An exported alias of a type in another of
// the module's packages (type WhatIf = recorder.WhatIf) is followed: the
// aliased type's declaration and methods are listed after the package, and
// so are, transitively, the named types of that package its exported
// fields use, so that a field a library user reads cannot change unseen.
func exportedSurface(dir string) (string, error) {
	fset := token.NewFileSet()
	pkgs, err := parseDir(fset, dir)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	p := surfacePrinter{b: &b, fset: fset}
	var follow []aliased
	for _, pkg := range pkgs {
		d := doc.New(pkg, module+"/engine/scenario", 0)
		b.WriteString("package " + d.Name + "\n")
		for _, v := range d.Consts {
			p.decl(v.Decl)
		}
		for _, v := range d.Vars {
			p.decl(v.Decl)
		}
		for _, f := range d.Funcs {
			p.fn(f)
		}
		for _, ty := range d.Types {
			if a, ok := aliasOf(pkg, fset, ty); ok {
				follow = append(follow, a)
			}
			p.decl(ty.Decl)
			for _, v := range ty.Consts {
				p.decl(v.Decl)
			}
			for _, f := range ty.Funcs {
				p.fn(f)
			}
			for _, f := range ty.Methods {
				p.fn(f)
			}
		}
	}
	for _, a := range follow {
		if err := followAlias(&b, dir, a); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

func parseDir(fset *token.FileSet, dir string) (map[string]*ast.Package, error) {
	return parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
}

// An aliased is an exported alias's target: the package's import path and
// the type's name in it.
type aliased struct {
	alias, path, name string
}

// aliasOf says what ty aliases, when it is an alias of a type in another of
// the module's packages.
func aliasOf(pkg *ast.Package, fset *token.FileSet, ty *doc.Type) (aliased, bool) {
	spec := ty.Decl.Specs[0].(*ast.TypeSpec)
	sel, ok := spec.Type.(*ast.SelectorExpr)
	if !spec.Assign.IsValid() || !ok {
		return aliased{}, false
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return aliased{}, false
	}
	file := pkg.Files[fset.File(spec.Pos()).Name()]
	for _, imp := range file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := pathpkg.Base(path)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == x.Name && strings.HasPrefix(path, module+"/") {
			return aliased{alias: ty.Name, path: path, name: sel.Sel.Name}, true
		}
	}
	return aliased{}, false
}

// followAlias lists a's target type with its methods, then the named types
// of its package that its exported fields use, transitively, by name.
func followAlias(b *bytes.Buffer, dir string, a aliased) error {
	fset := token.NewFileSet()
	root := filepath.Join(dir, "..", "..") // engine/scenario is two below the module's root
	pkgs, err := parseDir(fset, filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(a.path, module+"/"))))
	if err != nil {
		return err
	}
	types := map[string]*doc.Type{}
	for _, pkg := range pkgs {
		for _, ty := range doc.New(pkg, a.path, 0).Types {
			types[ty.Name] = ty
		}
	}
	if types[a.name] == nil {
		return fmt.Errorf("type %s = %s.%s: no exported type %s in %s", a.alias, pathpkg.Base(a.path), a.name, a.name, a.path)
	}
	seen := map[string]bool{a.name: true}
	for queue := []string{a.name}; len(queue) > 0; queue = queue[1:] {
		var use func(n ast.Node) bool
		use = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				ast.Inspect(n.Type, use) // its type, not its name
				return false
			case *ast.SelectorExpr:
				return false // another package's type: not followed
			case *ast.Ident:
				if types[n.Name] != nil && !seen[n.Name] {
					seen[n.Name] = true
					queue = append(queue, n.Name)
				}
			}
			return true
		}
		ast.Inspect(types[queue[0]].Decl.Specs[0].(*ast.TypeSpec).Type, use)
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	fmt.Fprintf(b, "\n// followed from type %s = %s.%s: %s and the types its fields use\n", a.alias, pathpkg.Base(a.path), a.name, a.path)
	p := surfacePrinter{b: b, fset: fset}
	for _, name := range names {
		p.decl(types[name].Decl)
		for _, f := range types[name].Methods {
			p.fn(f)
		}
	}
	return nil
}

// A surfacePrinter writes declarations as go doc shows them, without their
// comments and bodies: the comments are go doc's to show; the golden is the
// surface.
type surfacePrinter struct {
	b    *bytes.Buffer
	fset *token.FileSet
}

func (p surfacePrinter) print(node ast.Node) {
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
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	p.b.WriteString("\n")
	cfg.Fprint(p.b, p.fset, node)
	p.b.WriteString("\n")
}

func (p surfacePrinter) decl(g *ast.GenDecl) {
	g.Doc = nil
	p.print(g)
}

func (p surfacePrinter) fn(f *doc.Func) {
	f.Decl.Doc, f.Decl.Body = nil, nil
	p.print(f.Decl)
}
