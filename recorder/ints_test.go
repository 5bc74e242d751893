package recorder

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIntsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	random := make([]int64, 300)
	for i := range random {
		random[i] = rng.Int63n(100)
	}
	tests := []struct {
		name     string
		in       Ints[int64]
		wantRuns bool
	}{
		{name: "nil", in: nil},
		{name: "empty", in: Ints[int64]{}},
		{name: "short", in: Ints[int64]{3, 1, 2}},
		{name: "constant", in: Ints[int64](make([]int64, 500)), wantRuns: true},
		{name: "consecutive indices wrapping", in: append(seq(4000, 5000), seq(0, 300)...), wantRuns: true},
		{name: "mixed", in: append(append(seq(0, 50), 7, 7, 9, 3), seq(100, 40)...), wantRuns: true},
		{name: "negative steps", in: Ints[int64]{100, 90, 80, 70, 60, 50, 40, 30, 20, -10}, wantRuns: true},
		{name: "random stays plain", in: random},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.HasPrefix(string(data), "{"); got != tt.wantRuns {
				t.Errorf("runs form = %v, want %v: %s", got, tt.wantRuns, data)
			}
			var back Ints[int64]
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.in, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIntsRejectsHugeRuns(t *testing.T) {
	var v Ints[int]
	for _, in := range []string{`{"runs":[[0,1,99999999999]]}`, `{"runs":[[0,1,-1]]}`, `{"runs":"x"}`, `[1,"a"]`} {
		if err := json.Unmarshal([]byte(in), &v); err == nil {
			t.Errorf("%s: want an error", in)
		}
	}
}

func seq(from, n int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = from + int64(i)
	}
	return out
}
