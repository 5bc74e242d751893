package commands

import (
	"fmt"
	"time"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui"
)

// recordingMarks keeps a replay's marks in the sidecar beside its recording
// (recorder.Marks): read when the replay opens, written whole on each change.
type recordingMarks struct {
	path  string
	marks *recorder.Marks
	err   error
}

var _ tui.MarkStore = (*recordingMarks)(nil)

// openMarks reads the marks beside the recording at path. A sidecar that
// cannot be read, or is another recording's, is an error the TUI lists;
// then nothing is shown, and nothing is written over it.
func openMarks(path string) *recordingMarks {
	s := &recordingMarks{path: path}
	id, err := recorder.RecordingIdentity(path)
	if err == nil {
		s.marks, err = recorder.ReadMarks(path, id)
	}
	s.err = err
	return s
}

func (s *recordingMarks) Marks() []recorder.Mark {
	if s.marks == nil {
		return nil
	}
	return s.marks.Marks
}

func (s *recordingMarks) Err() error { return s.err }

func (s *recordingMarks) Set(seq int, pod, note string) (string, error) {
	if s.err != nil {
		return "", fmt.Errorf("%w; move it away to mark this recording", s.err)
	}
	s.marks.Set(seq, pod, note, time.Now())
	if err := s.marks.Save(s.path); err != nil {
		return "", err
	}
	return "kept in " + recorder.MarksPath(s.path), nil
}
