package narrate

import (
	"fmt"

	"github.com/schedscope/schedscope/recorder"
)

// StrayMark words a mark that names no cycle of its recording as it is.
func StrayMark(s recorder.StrayMark) string {
	if s.Pod == "" {
		return fmt.Sprintf("the mark of cycle %d (pod %s) names no cycle of the recording: not shown", s.Seq, s.Mark.Pod)
	}
	return fmt.Sprintf("the mark of cycle %d names pod %s, but the cycle schedules %s: not shown", s.Seq, s.Mark.Pod, s.Pod)
}
