package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	yamlv2 "go.yaml.in/yaml/v2"
)

// Write prints v, a document of this package or any value encoding/json
// takes, as indented JSON (format "json") or as YAML ("yaml"), in the
// JSON's key order, and a newline.
func Write(w io.Writer, format string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if format == "yaml" {
		if data, err = YAML(data); err != nil {
			return err
		}
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// YAML turns a JSON document into YAML with the keys in the order the
// JSON has them: a document's format and schema version first, as in its
// JSON, rather than sorted after its cycles (sigs.k8s.io/yaml's
// JSONToYAML goes through a map). Numbers keep their form.
func YAML(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := orderedValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("JSON to YAML: data after the document")
	}
	return yamlv2.Marshal(v)
}

// orderedValue reads one JSON value: an object as an ordered yaml.MapSlice.
func orderedValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			out := yamlv2.MapSlice{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := orderedValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, yamlv2.MapItem{Key: k, Value: v})
			}
			_, err := dec.Token() // }
			return out, err
		case '[':
			out := []any{}
			for dec.More() {
				v, err := orderedValue(dec)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			_, err := dec.Token() // ]
			return out, err
		}
		return nil, fmt.Errorf("JSON to YAML: unexpected %v", t)
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		f, err := t.Float64()
		return f, err
	}
	return tok, nil // string, bool or nil
}
