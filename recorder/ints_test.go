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

// FuzzInts decodes arbitrary JSON as an Ints list both ways a recording is
// read (Ints.UnmarshalJSON, and the budgeted decoder of records), and writes
// lists made from the input's bytes. The two decoders must agree and stay
// within their bounds, and every list written must read back equal.
func FuzzInts(f *testing.F) {
	f.Add([]byte(`{"runs":[[0,1,5],[7,0,3]]}`))
	f.Add([]byte(`[1,2,3]`))
	f.Add([]byte(`{"runs":[[0,0,1048576],[0,0,1048576]]}`))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		var plain Ints[int64]
		plainErr := plain.UnmarshalJSON(data)
		if plainErr == nil && len(plain) > maxInts {
			t.Fatalf("Ints.UnmarshalJSON made %d values, more than %d", len(plain), maxInts)
		}
		var w wireInts
		if err := w.UnmarshalJSON(data); err == nil {
			b := &budget{perList: 1 << 12, left: 1 << 14}
			got, err := expandInts[int64](w, b, "fuzz")
			if err == nil {
				if w.isRun && int64(len(got)) > 1<<12 {
					t.Fatalf("runs expanded to %d values past a budget of %d", len(got), 1<<12)
				}
				if plainErr != nil {
					t.Fatalf("the record decoder read %v, Ints.UnmarshalJSON failed: %v", got, plainErr)
				}
				if !cmp.Equal([]int64(plain), []int64(got)) {
					t.Fatalf("decoders disagree: %v and %v", plain, got)
				}
			} else if !strings.Contains(err.Error(), "fuzz: runs expand to") {
				t.Fatalf("expansion error %q does not name the list", err)
			}
		} else if plainErr == nil {
			t.Fatalf("Ints.UnmarshalJSON read %v, the record decoder failed: %v", plain, err)
		}

		// Lists made of the input's bytes, small so that runs are common.
		var in Ints[int64]
		for _, b := range data {
			in = append(in, int64(b%8)-2)
		}
		enc, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var back Ints[int64]
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Fatalf("reading %s: %v", enc, err)
		}
		if !cmp.Equal([]int64(in), []int64(back)) {
			t.Fatalf("round trip of %v through %s gave %v", in, enc, back)
		}
	})
}
