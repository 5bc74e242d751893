package podnames

import "testing"

func TestFitDiffering(t *testing.T) {
	tests := []struct {
		s      string
		shared int
		w      int
		want   string
	}{
		{"web", 0, 10, "web"},
		{"checkout-service-966fb979-g6jq8", 26, 20, "checkout-serv…-g6jq8"},
		{"checkout-service-966fb979-g6jq8", 26, 8, "…9-g6jq8"},
		{"checkout-service-966fb979-g6jq8", 26, 5, "…g6j…"},
		{"checkout-service-966fb979-g6jq8", 0, 12, "checkout-se…"},
		{"report-0-qcgxq", 7, 12, "rep…-0-qcgxq"},
		{"report-0-qcgxq", 7, 10, "…t-0-qcgxq"},
		{"report-0-qcgxq", 7, 11, "rep…0-qcgxq"},
	}
	for _, tc := range tests {
		if got := Fit(tc.s, tc.shared, tc.w); got != tc.want {
			t.Errorf("Fit(%q, %d, %d) = %q, want %q", tc.s, tc.shared, tc.w, got, tc.want)
		}
	}
}

func TestFitAlone(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		want string
	}{
		{"shop/checkout-966fb979c-g6jq8", 40, "shop/checkout-966fb979c-g6jq8"},
		{"shop/checkout-966fb979c-g6jq8", 20, "shop/checkout…-g6jq8"},
		{"default/huge", 8, "default…"},
	}
	for _, tc := range tests {
		if got := FitAlone(tc.s, tc.w); got != tc.want {
			t.Errorf("FitAlone(%q, %d) = %q, want %q", tc.s, tc.w, got, tc.want)
		}
	}
}
