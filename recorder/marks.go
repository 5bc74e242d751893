package recorder

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"syscall"
	"time"
)

// Marks are the cycles of a recording a user marked, each with a note, kept
// in a sidecar file beside it (MarksPath): the recording itself stays
// append-only and checksummed. The sidecar names its recording by the
// SHA-256 of the recording's first line, its header record, which holds
// when and from what the recording was made: marks of another recording
// are refused, never applied.
type Marks struct {
	Format    string `json:"format"`
	Recording string `json:"recording"`
	Marks     []Mark `json:"marks"`
}

// A Mark is one marked cycle: its number, its pod (namespace/name, checked
// against the cycle when applied) and the note.
type Mark struct {
	Seq    int       `json:"seq"`
	Pod    string    `json:"pod"`
	Note   string    `json:"note"`
	Marked time.Time `json:"marked"`
}

// MarksFormat is the sidecar's format name.
const MarksFormat = "schedscope-marks"

// maxMarksFile bounds a sidecar read; a note is one line of a prompt.
const maxMarksFile = 16 << 20

// MarksPath is the sidecar of the recording at path.
func MarksPath(recording string) string { return recording + ".marks" }

// RecordingIdentity is what a sidecar names a recording by: the SHA-256 of
// its first line, the header record.
func RecordingIdentity(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(io.LimitReader(f, maxHeaderLine+1), 64<<10).ReadSlice('\n')
	if err != nil {
		return "", fmt.Errorf("%s: no header line to identify the recording by", path)
	}
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:]), nil
}

// ReadMarks reads the marks of the recording at path whose identity is id:
// none when there is no sidecar; an error naming the sidecar when it is
// not one (not a regular file, not marks), or belongs to another recording.
func ReadMarks(path, id string) (*Marks, error) {
	side := MarksPath(path)
	m := &Marks{Format: MarksFormat, Recording: id}
	// Opened without blocking, so that a named pipe in the sidecar's place
	// is refused instead of waited on for ever.
	f, err := os.OpenFile(side, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file: not a sidecar of marks", side)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMarksFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", side, err)
	}
	if len(data) > maxMarksFile {
		return nil, fmt.Errorf("%s: larger than %d MiB: not a sidecar of marks", side, maxMarksFile>>20)
	}
	var read Marks
	if err := json.Unmarshal(data, &read); err != nil || read.Format != MarksFormat {
		return nil, fmt.Errorf("%s: not a sidecar of marks (want JSON with \"format\": %q)", side, MarksFormat)
	}
	if read.Recording != id {
		return nil, fmt.Errorf("%s: its marks are of another recording (its header's SHA-256 %.12s…, this one's %.12s…): not applied", side, read.Recording, id)
	}
	m.Marks = read.Marks
	return m, nil
}

// Set marks cycle seq of pod with note, or, when note is empty, unmarks it.
func (m *Marks) Set(seq int, pod, note string, now time.Time) {
	i := slices.IndexFunc(m.Marks, func(k Mark) bool { return k.Seq == seq })
	switch {
	case note == "" && i >= 0:
		m.Marks = slices.Delete(m.Marks, i, i+1)
	case note == "":
	case i >= 0:
		m.Marks[i].Note, m.Marks[i].Pod = note, pod
	default:
		m.Marks = append(m.Marks, Mark{Seq: seq, Pod: pod, Note: note, Marked: now.UTC()})
		slices.SortFunc(m.Marks, func(a, b Mark) int { return a.Seq - b.Seq })
	}
}

// Of is the mark of cycle seq, if any.
func (m *Marks) Of(seq int) (Mark, bool) {
	if m == nil {
		return Mark{}, false
	}
	i := slices.IndexFunc(m.Marks, func(k Mark) bool { return k.Seq == seq })
	if i < 0 {
		return Mark{}, false
	}
	return m.Marks[i], true
}

// Save writes the sidecar of the recording at path whole, renamed into
// place: a reader never sees half of it.
func (m *Marks) Save(path string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	out, err := CreateAtomic(MarksPath(path), path)
	if err != nil {
		return err
	}
	if _, err := out.Write(append(data, '\n')); err != nil {
		_ = out.Abort()
		return err
	}
	return out.Commit()
}

// A StrayMark is a mark that names no cycle of its recording as it is: its
// cycle is not there, or schedules another pod (Pod, "" when there is no
// such cycle). It is reported, never shown.
type StrayMark struct {
	Mark
	Pod string
}

// Applicable keeps the marks whose cycle is among entries and schedules the
// pod the mark names; the others are returned as strays.
func Applicable(marks []Mark, entries []CycleEntry) (kept []Mark, strays []StrayMark) {
	pods := make(map[int]string, len(entries))
	for _, e := range entries {
		pods[e.Seq] = e.Pod.Key()
	}
	for _, k := range marks {
		pod, ok := pods[k.Seq]
		if ok && pod == k.Pod {
			kept = append(kept, k)
			continue
		}
		strays = append(strays, StrayMark{Mark: k, Pod: pod})
	}
	return kept, strays
}
