package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A package's doc.go that maps its files ("Where things are") must match
// them: every file and subpackage it names is there, and every file of the
// package and every subpackage with Go files is named, so that a file
// moved, renamed or added without its line in the map fails here.
func TestDocMapsMatchTheFiles(t *testing.T) {
	root := filepath.Join("..", "..")
	goFile := regexp.MustCompile(`\b[a-z0-9_]+\.go\b`)
	var maps []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.Name() == "doc.go" {
			maps = append(maps, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, doc := range maps {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		named := goFile.FindAllString(text, -1)
		if len(slices.Compact(slices.Sorted(slices.Values(named)))) < 2 {
			continue // a package comment, not a map
		}
		checked++
		dir := filepath.Dir(doc)
		rel, _ := filepath.Rel(root, dir)
		var files []string // the package's files and those of its subpackages, by base name
		var own []string   // the package's own files
		var subs []string  // subpackages with Go files, relative to dir
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				if err == nil && d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return err
			}
			if !strings.HasSuffix(d.Name(), ".go") || strings.HasSuffix(d.Name(), "_test.go") {
				return nil
			}
			files = append(files, d.Name())
			if p := filepath.Dir(path); p == dir {
				own = append(own, d.Name())
			} else if sub, _ := filepath.Rel(dir, p); !slices.Contains(subs, sub) {
				subs = append(subs, sub)
			}
			return nil
		})
		for _, name := range named {
			if !slices.Contains(files, name) {
				t.Errorf("%s names %s, which is not in %s or its subpackages", doc, name, rel)
			}
		}
		for _, name := range own {
			if name != "doc.go" && !slices.Contains(named, name) {
				t.Errorf("%s does not name %s", doc, name)
			}
		}
		for _, sub := range subs {
			if !strings.Contains(text, filepath.ToSlash(sub)) && !strings.Contains(text, filepath.Base(sub)) {
				t.Errorf("%s does not name its subpackage %s", doc, sub)
			}
		}
	}
	if checked < 5 {
		t.Errorf("checked %d file maps; want the maps of tui, engine, recorder, commands and fixture at least", checked)
	}
}
