package narrate

import "testing"

func TestQuantity(t *testing.T) {
	tests := []struct {
		res  string
		v    int64
		want string
	}{
		{"cpu", 4000, "4"},
		{"cpu", 500, "500m"},
		{"memory", 8 << 30, "8Gi"},
		{"memory", 3 << 29, "1.5Gi"},
		{"memory", 512 << 20, "512Mi"},
		{"pods", 110, "110"},
	}
	for _, tc := range tests {
		if got := Quantity(tc.res, tc.v); got != tc.want {
			t.Errorf("Quantity(%s, %d) = %q, want %q", tc.res, tc.v, got, tc.want)
		}
	}
}
