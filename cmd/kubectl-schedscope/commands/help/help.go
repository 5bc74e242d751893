// Package help holds schedscope's reference: one Markdown file a topic in
// this directory, embedded in the binary. `kubectl schedscope help TOPIC`
// prints a topic; on the web the same files read as Markdown. README.md is
// the short tour and links here.
package help

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed *.md
var files embed.FS

// Topic is one reference page.
type Topic struct {
	// Name is what `help NAME` takes: the file's name without .md.
	Name string
	// Title is the page's first line, its "# " heading.
	Title string
	// Text is the whole page.
	Text string
}

// order is the order `help` lists the topics in: what a newcomer reads
// first, first.
var order = []string{"debugger", "commands", "what-if", "live-mode", "fleet", "fixtures", "pod-groups", "install", "plugins", "library", "architecture", "performance", "development"}

// Topics are the reference pages in the order help lists them. A page
// without its "# " title, or a file not in the order, is an error: the
// list is kept with the files.
func Topics() ([]Topic, error) {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil, err
	}
	if len(entries) != len(order) {
		return nil, fmt.Errorf("help: %d pages, %d in the order", len(entries), len(order))
	}
	out := make([]Topic, 0, len(order))
	for _, name := range order {
		data, err := files.ReadFile(name + ".md")
		if err != nil {
			return nil, fmt.Errorf("help: %s.md is in the order but not embedded", name)
		}
		text := string(data)
		first, _, _ := strings.Cut(text, "\n")
		title, ok := strings.CutPrefix(first, "# ")
		if !ok {
			return nil, fmt.Errorf("help: %s.md does not start with a \"# \" title", name)
		}
		out = append(out, Topic{Name: name, Title: title, Text: text})
	}
	return out, nil
}
