package markdown

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/document"
)

// A recorded string cannot break a table or a code span.
func TestMarkdownCell(t *testing.T) {
	if got, want := Cell("a|b`c\\d\ne"), `a\|b'c\\d\\ne`; got != want {
		t.Errorf("Cell = %q, want %q", got, want)
	}
}

// What a recording holds (a pod's name, an extender's message, a fixture's
// file name, a mark's note: here every string of each cycle) reads as text
// in the Markdown: no raw HTML, no link or image, however it is written.
func TestMarkdownEscapesRecordedText(t *testing.T) {
	const evil = "<img src=x onerror=alert(1)>[l](javascript:alert(3))![i](x.png)`code` *em* _em_ a|b"
	rec, err := recorder.LoadFile("../../../tui/testdata/default.rec")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	m := &Writer{Out: document.Out{W: &out}}
	for _, c := range rec.Cycles {
		setStrings(reflect.ValueOf(c).Elem(), evil)
		c.Outcome.Result = recorder.ResultUnschedulable
		m.Marks = append(m.Marks, recorder.Mark{Seq: c.Seq, Pod: c.Pod.Key(), Note: evil})
	}
	m.Header(rec.Header, "fixture "+evil+".yaml")
	for _, c := range rec.Cycles {
		m.Cycle(c)
	}
	md := out.String()
	if n := strings.Count(md, "&lt;img src=x onerror=alert\\(1\\)&gt;\\[l\\]\\(javascript:alert\\(3\\)\\)\\!\\[i\\]\\(x.png\\)'code' \\*em\\* \\_em\\_ a\\|b"); n < 10 {
		t.Errorf("the escaped text is there %d times:\n%s", n, md)
	}
	for _, raw := range []string{"<", "[l]", "](", "![", "`code`", "*em*", "_em_"} {
		if strings.Contains(md, raw) {
			t.Errorf("the Markdown has %q:\n%s", raw, md)
		}
	}
}

// setStrings sets every string v holds (fields, elements, pointed-to
// values; not map keys) to s.
func setStrings(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(s)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			setStrings(v.Elem(), s)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				setStrings(v.Field(i), s)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			setStrings(v.Index(i), s)
		}
	}
}
