package recorder

import (
	"fmt"
	"strconv"
	"time"
)

// Duration is a duration that JSON spells as Go does ("812ns", "2.4ms").
type Duration time.Duration

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, time.Duration(d).String()), nil
}

// UnmarshalJSON reads a duration written by MarshalJSON.
func (d *Duration) UnmarshalJSON(data []byte) error {
	s, err := strconv.Unquote(string(data))
	if err != nil {
		return fmt.Errorf("duration must be a string like \"1.5ms\": %s", data)
	}
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}
