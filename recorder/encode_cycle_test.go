package recorder

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"reflect"
	"testing"
	"time"
)

// stdCycleRecord is a cycle record as encoding/json writes it, with the
// writer's settings.
func stdCycleRecord(t *testing.T, c *Cycle, nodeSetAt, n int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&envelope{Kind: KindCycle, Cycle: c, NodeSetAt: nodeSetAt, N: n}); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func handCycleRecord(t *testing.T, c *Cycle, nodeSetAt, n int64) []byte {
	t.Helper()
	e := newCycleEncoder()
	e.appendRecord(c, nodeSetAt, n)
	if e.err != nil {
		t.Fatal(e.err)
	}
	return e.b
}

// TestCycleRecordIsEncodingJSON fills every field of cycles at random,
// some left empty, nil or zero, and checks that the hand-written encoder
// writes what encoding/json writes, byte for byte. A field added to a
// cycle's types and not to the encoder fails here.
func TestCycleRecordIsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	differ := 0
	for i := 0; i < 3000; i++ {
		var c Cycle
		fillRandom(rng, reflect.ValueOf(&c).Elem(), 0)
		at, n := rng.Int63n(3)*rng.Int63n(1<<40), rng.Int63n(3)*rng.Int63n(1000)
		want, got := stdCycleRecord(t, &c, at, n), handCycleRecord(t, &c, at, n)
		if !bytes.Equal(want, got) {
			differ++
			if differ <= 3 {
				t.Errorf("cycle %d differs: %s", i, firstDifference(want, got))
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of 3000 cycles differ", differ)
	}
	// A cycle with every pointer nil and every slice empty.
	var c Cycle
	if want, got := stdCycleRecord(t, &c, 0, 0), handCycleRecord(t, &c, 0, 0); !bytes.Equal(want, got) {
		t.Errorf("zero cycle: %s", firstDifference(want, got))
	}
}

// TestCycleRecordOfRecordedCycles re-encodes the cycles of a recording the
// engine made, both ways.
func TestCycleRecordOfRecordedCycles(t *testing.T) {
	f, err := os.Open("testdata/v1/preemption.rec")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Cycles) == 0 {
		t.Fatal("no cycles in the recording")
	}
	for _, c := range rec.Cycles {
		if want, got := stdCycleRecord(t, c, 7, 9), handCycleRecord(t, c, 7, 9); !bytes.Equal(want, got) {
			t.Errorf("cycle %d: %s", c.Seq, firstDifference(want, got))
		}
	}
}

// TestCycleRecordRefusesWhatEncodingJSONRefuses: a start time encoding/json
// cannot write is an error, not a record.
func TestCycleRecordRefusesWhatEncodingJSONRefuses(t *testing.T) {
	c := &Cycle{Start: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	e := newCycleEncoder()
	e.appendRecord(c, 0, 1)
	if e.err == nil {
		t.Fatalf("a year-10000 start encoded as %s", e.b)
	}
}

// firstDifference shows where two encodings part.
func firstDifference(want, got []byte) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	from := max(0, i-60)
	return fmt.Sprintf("at byte %d:\nencoding/json: …%s\nby hand:       …%s", i, want[from:min(len(want), i+60)], got[from:min(len(got), i+60)])
}

var fillStrings = []string{"", "a", "node-1", "NodeResourcesFit", `with "quote"`, "back\\slash", "tab\there", "line\nbreak",
	"ünïcödé", "<html>&amp;", "sep\u2028arator", string([]byte{'x', 0xff, 'y'}), "ctl\x01", "del\x7f"}

// fillRandom sets v, and what it holds, to random values; some fields,
// pointers, slices and maps are left zero, nil or empty.
func fillRandom(rng *rand.Rand, v reflect.Value, depth int) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		zone := time.UTC
		if rng.Intn(2) == 0 {
			zone = time.FixedZone("x", 3600*(rng.Intn(25)-12))
		}
		v.Set(reflect.ValueOf(time.Unix(rng.Int63n(4e9), rng.Int63n(1e9)).In(zone)))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && rng.Intn(5) > 0 {
				fillRandom(rng, v.Field(i), depth+1)
			}
		}
	case reflect.Pointer:
		if depth < 6 && rng.Intn(6) > 0 {
			p := reflect.New(v.Type().Elem())
			fillRandom(rng, p.Elem(), depth+1)
			v.Set(p)
		}
	case reflect.Slice:
		switch k := rng.Intn(6); {
		case k == 0: // nil
		case k == 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			n := 1 + rng.Intn(12)
			if rng.Intn(3) == 0 {
				n = 8 + rng.Intn(40)
			}
			s := reflect.MakeSlice(v.Type(), n, n)
			progression := rng.Intn(2) == 0
			start, step := rng.Int63n(100), rng.Int63n(3)-1
			for i := 0; i < n; i++ {
				el := s.Index(i)
				if progression && el.CanInt() {
					el.SetInt(start + int64(i)*step)
					continue
				}
				fillRandom(rng, el, depth+1)
			}
			v.Set(s)
		}
	case reflect.Map:
		switch k := rng.Intn(5); {
		case k == 0: // nil
		case k == 1:
			v.Set(reflect.MakeMap(v.Type()))
		default:
			m := reflect.MakeMap(v.Type())
			for i := 0; i < 1+rng.Intn(4); i++ {
				key := reflect.New(v.Type().Key()).Elem()
				fillRandom(rng, key, depth+1)
				val := reflect.New(v.Type().Elem()).Elem()
				fillRandom(rng, val, depth+1)
				m.SetMapIndex(key, val)
			}
			v.Set(m)
		}
	case reflect.String:
		v.SetString(fillStrings[rng.Intn(len(fillStrings))])
	case reflect.Bool:
		v.SetBool(rng.Intn(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch rng.Intn(4) {
		case 0:
		case 1:
			v.SetInt(-rng.Int63n(1000))
		default:
			v.SetInt(rng.Int63n(1 << 31))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(rng.Int63n(1 << 31)))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(rng.Float64() * 100)
	}
}
