package recorder

import "testing"

func TestParseSetWeight(t *testing.T) {
	tests := []struct {
		in      string
		want    SetWeight
		wantErr bool
	}{
		{in: "NodeResourcesFit=5", want: SetWeight{Plugin: "NodeResourcesFit", Weight: 5}},
		{in: " ImageLocality = 0 ", want: SetWeight{Plugin: "ImageLocality"}},
		{in: "ImageLocality", wantErr: true},
		{in: "=5", wantErr: true},
		{in: "ImageLocality=five", wantErr: true},
		{in: "ImageLocality=99999999999", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseSetWeight(tc.in)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("ParseSetWeight(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestParseDisable(t *testing.T) {
	tests := []struct {
		in      string
		want    Disable
		wantErr bool
	}{
		{in: "NodeResourcesFit", want: Disable{Plugin: "NodeResourcesFit"}},
		{in: "NodeResourcesFit:score", want: Disable{Plugin: "NodeResourcesFit", Point: "score"}},
		{in: " TaintToleration : filter", want: Disable{Plugin: "TaintToleration", Point: "filter"}},
		{in: ":score", wantErr: true},
		{in: "  ", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseDisable(tc.in)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("ParseDisable(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.wantErr)
			}
		})
	}
}
