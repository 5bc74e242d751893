package report

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
	"github.com/schedscope/schedscope/recorder/export/html"
	"github.com/schedscope/schedscope/recorder/export/markdown"
)

// Files is what the TUI's X runs: it writes the cycle on screen to
// share, as schedscope-cycle-N.md and schedscope-cycle-N.html (what
// -o markdown and -o html write for it) in dir, never over a file already
// there (-2, -3, … are added). marks, if set, gives the session's marks.
func Files(dir, source string, marks func() []recorder.Mark) func(recorder.Header, *recorder.Cycle) (string, error) {
	return func(h recorder.Header, c *recorder.Cycle) (string, error) {
		var ms []recorder.Mark
		if marks != nil {
			ms = marks()
		}
		var md, page bytes.Buffer
		m := &markdown.Writer{Out: document.Out{W: &md, Marks: ms}}
		m.Header(h, source)
		m.Cycle(c)
		hw := &html.Writer{Out: document.Out{W: &page, Marks: ms}}
		hw.Begin(h, source)
		hw.Cycle(c)
		hw.End()
		if err := errors.Join(m.Err(), hw.Err()); err != nil {
			return "", err
		}
		for n := 1; n < 1000; n++ {
			base := fmt.Sprintf("schedscope-cycle-%d", c.Seq)
			if n > 1 {
				base += fmt.Sprintf("-%d", n)
			}
			mdPath, htmlPath := filepath.Join(dir, base+".md"), filepath.Join(dir, base+".html")
			err := createNew(mdPath, md.Bytes())
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			if err != nil {
				return "", err
			}
			if err := createNew(htmlPath, page.Bytes()); err != nil {
				os.Remove(mdPath)
				if errors.Is(err, fs.ErrExist) {
					continue
				}
				return "", err
			}
			return fmt.Sprintf("%s and %s", mdPath, htmlPath), nil
		}
		return "", fmt.Errorf("%s holds schedscope-cycle-%d files up to -999", dir, c.Seq)
	}
}

// createNew writes a file that must not exist yet.
func createNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}
