package narrate

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// FieldPath writes a field's path as kubectl explain and the API server's
// validation do: spec.containers[0].resources. Members are map keys
// (string) and list positions (int); a key that is not a plain name is
// quoted in brackets: metadata.labels["app.kubernetes.io/name"].
func FieldPath(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch p := p.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", p)
		case string:
			if !plainKey.MatchString(p) {
				b.WriteString("[" + strconv.Quote(p) + "]")
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p)
		}
	}
	return b.String()
}

var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// FieldChanges words what differs between two objects decoded from JSON or
// YAML (maps, lists and scalars), one change a field, by field path:
//
//	spec.containers[0].resources.requests.cpu: 12 → 1
//	metadata.labels.team: + ml
//	spec.taints[0]: − {effect: NoSchedule, key: gpu}
//
// Fields are in key order. A value written as a string or a number with
// the same text ("1" and 1) is the same value, as it is to a quantity.
// Lists of the same length are compared position by position; when the
// length changed, an element not found on the other side is added or
// removed at its position.
func FieldChanges(before, after any) []string {
	var out []string
	fieldChanges(nil, before, after, func(path []any, words string) {
		out = append(out, FieldPath(path)+": "+words)
	})
	return out
}

// fieldChanges calls change with the path and the words of each field that
// differs between before and after.
func fieldChanges(path []any, before, after any, change func(path []any, words string)) {
	at := func(p any) []any { return append(slices.Clip(path), p) }
	switch b := before.(type) {
	case map[string]any:
		a, ok := after.(map[string]any)
		if !ok {
			break
		}
		both := maps.Clone(b)
		maps.Copy(both, a)
		for _, k := range slices.Sorted(maps.Keys(both)) {
			bv, inB := b[k]
			av, inA := a[k]
			switch {
			case !inA:
				change(at(k), "− "+Value(bv))
			case !inB:
				change(at(k), "+ "+Value(av))
			default:
				fieldChanges(at(k), bv, av, change)
			}
		}
		return
	case []any:
		a, ok := after.([]any)
		if !ok {
			break
		}
		if len(a) == len(b) {
			for i := range b {
				fieldChanges(at(i), b[i], a[i], change)
			}
			return
		}
		for i, v := range b {
			if !containsValue(a, v) {
				change(at(i), "− "+Value(v))
			}
		}
		for i, v := range a {
			if !containsValue(b, v) {
				change(at(i), "+ "+Value(v))
			}
		}
		return
	}
	if bv, av := Value(before), Value(after); bv != av {
		change(path, bv+" → "+av)
	}
}

func containsValue(list []any, v any) bool {
	text := Value(v)
	return slices.ContainsFunc(list, func(x any) bool { return Value(x) == text })
}

// Value writes a decoded value on one line, in YAML's flow style: a scalar
// as written, a map as {key: value, …} in key order, a list as [a, b].
func Value(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		if v == "" || strings.ContainsAny(v, ":{}[],#\n") || strings.TrimSpace(v) != v {
			return strconv.Quote(v)
		}
		return v
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + Value(v[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = Value(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case json.Number:
		return v.String()
	}
	return fmt.Sprint(v)
}
