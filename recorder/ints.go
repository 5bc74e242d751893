package recorder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Ints is a list of integers (node indices, scores) that is written compactly:
// as a plain JSON array, or, when that is shorter, as runs of arithmetic
// progressions {"runs":[[first,step,count],...]}. Scores are often the same for
// many nodes and node indices often consecutive, so on large clusters the runs
// form is many times smaller. Both forms are read.
type Ints[T ~int | ~int64] []T

// maxInts bounds how many values a runs form may expand to, so a damaged or
// hand-made line cannot make a reader allocate without limit; no cluster has
// a million nodes.
const maxInts = 1 << 20

type intsRuns struct {
	Runs [][3]int64 `json:"runs"`
}

// nextRun is the arithmetic progression of v starting at i, taken
// greedily: its first value, step and length. A progression of two is
// taken as a single value, so that the second can start a longer run.
func nextRun[T ~int | ~int64](v []T, i int) (first, step int64, n int) {
	j := i + 1
	if j < len(v) {
		step = int64(v[j]) - int64(v[i])
		for j < len(v) && int64(v[j])-int64(v[j-1]) == step {
			j++
		}
	}
	n = j - i
	if n <= 2 {
		n, step = 1, 0
	}
	return int64(v[i]), step, n
}

// countRuns counts the runs nextRun splits v into, giving up (-1) once
// there would be more than limit.
func countRuns[T ~int | ~int64](v []T, limit int) int {
	count := 0
	for i := 0; i < len(v); count++ {
		if count == limit {
			return -1
		}
		_, _, n := nextRun(v, i)
		i += n
	}
	return count
}

// MarshalJSON writes the runs form when it has less than a third as many
// numbers as the plain one, else the plain form.
func (s Ints[T]) MarshalJSON() ([]byte, error) {
	return s.appendJSON(nil), nil
}

// appendJSON appends what MarshalJSON returns. The runs are counted first
// and then written: nothing is built on the way (a recording writes several
// of these per cycle, and lists that do not compress are the common case
// for scores).
func (s Ints[T]) appendJSON(out []byte) []byte {
	if s == nil {
		return append(out, "null"...)
	}
	if len(s) >= 8 {
		// Lists that do not compress (scores, mostly) are given up on early.
		if count := countRuns(s, (len(s)-1)/3); count >= 0 {
			out = slices.Grow(out, 16+12*count)
			out = append(out, `{"runs":[`...)
			for i := 0; i < len(s); {
				first, step, n := nextRun(s, i)
				if i > 0 {
					out = append(out, ',')
				}
				out = append(out, '[')
				out = strconv.AppendInt(out, first, 10)
				out = append(out, ',')
				out = strconv.AppendInt(out, step, 10)
				out = append(out, ',')
				out = strconv.AppendInt(out, int64(n), 10)
				out = append(out, ']')
				i += n
			}
			return append(out, "]}"...)
		}
	}
	out = slices.Grow(out, 2+4*len(s))
	out = append(out, '[')
	for i, x := range s {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendInt(out, int64(x), 10)
	}
	return append(out, ']')
}

// UnmarshalJSON reads either form.
func (s *Ints[T]) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if bytes.Equal(data, []byte("null")) {
		*s = nil
		return nil
	}
	if len(data) > 0 && data[0] == '{' {
		var r intsRuns
		if err := json.Unmarshal(data, &r); err != nil {
			return err
		}
		var total int64
		for _, run := range r.Runs {
			if run[2] < 0 || run[2] > maxInts {
				return fmt.Errorf("run length %d out of range", run[2])
			}
			total += run[2]
			if total > maxInts {
				return fmt.Errorf("runs expand to more than %d values", maxInts)
			}
		}
		out := make([]T, 0, total)
		for _, run := range r.Runs {
			for k := int64(0); k < run[2]; k++ {
				out = append(out, T(run[0]+k*run[1]))
			}
		}
		*s = out
		return nil
	}
	var plain []T
	if err := json.Unmarshal(data, &plain); err != nil {
		return err
	}
	*s = plain
	return nil
}
