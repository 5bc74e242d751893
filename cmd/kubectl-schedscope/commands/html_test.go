package commands

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var updateHTML = flag.Bool("update-html", false, "rewrite testdata/default.html from the default recording")

// TestHTMLExport writes the default recording's cycles as one HTML page:
// the page is the golden one (testdata/default.html, rewritten with
// -update-html), it has the filter matrix with the rejecting plugin marked
// and the score bars, and a recorded string is escaped.
func TestHTMLExport(t *testing.T) {
	out, errOut, code := run(t, "replay", "../../../tui/testdata/default.rec", "--no-tui", "-o", "html")
	if code != 0 || errOut != "" {
		t.Fatalf("replay -o html: exit %d: %s", code, errOut)
	}
	golden := filepath.Join("testdata", "default.html")
	if *updateHTML {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("the HTML differs from %s (rewrite it with -update-html and review the diff)", golden)
	}
	for _, w := range []string{
		"<!doctype html>",
		`<td class="reject" title="rejected by TaintToleration">⊘</td>`,
		`<span class="node chosen">node-a ★</span><div class="bar">`,
		"node-d lost by 11: NodeResourcesFit −9, NodeResourcesBalancedAllocation −2",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
}

// TestHTMLRendersInChromium opens the HTML of a fixture's cycles in headless
// Chromium (Debian's chromium package; .ci/run installs it): the screenshot
// is not blank, and the page Chromium built holds the node names.
func TestHTMLRendersInChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is needed to render the HTML export (Debian package chromium; .ci/run installs it)")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "default.html")
	out, errOut, code := run(t, "explain", "-f", "default", "-o", "html")
	if code != 0 {
		t.Fatalf("explain -o html: exit %d: %s", code, errOut)
	}
	if err := os.WriteFile(page, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + filepath.Join(dir, "profile"),
		"--window-size=1200,1600"}
	if b, err := exec.Command(chromium, append(args, "--screenshot="+shot, "file://"+page)...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, b)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The bars and the rejecting cells are coloured: count pixels far from
	// white and grey.
	coloured := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			hi, lo := max(r, g, bl), min(r, g, bl)
			if hi-lo > 0x3000 {
				coloured++
			}
		}
	}
	if coloured < 500 {
		t.Errorf("the screenshot has %d coloured pixels (sampled): the page drew no bars", coloured)
	}
	dom, err := exec.Command(chromium, append(args, "--dump-dom", "file://"+page)...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	for _, node := range []string{"node-a", "node-b", "node-c", "node-d"} {
		if !bytes.Contains(dom, []byte(node)) {
			t.Errorf("the page Chromium built does not name %s", node)
		}
	}
}
