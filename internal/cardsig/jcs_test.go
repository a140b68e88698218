package cardsig

import (
	"encoding/json"
	"strings"
	"testing"
)

// The RFC 8785 examples of number and string serialization, and member order by UTF-16 units.
func TestCanonicalJSON(t *testing.T) {
	for in, want := range map[string]string{
		`{"b":1,"a":[true,null,"x"]}`: `{"a":[true,null,"x"],"b":1}`,
		`[1e21, 1e-7, 0.000001, -0, 333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001]`: `[1e+21,1e-7,0.000001,0,333333333.3333333,1e+30,4.5,0.002,1e-27]`,
		`"\u20ac$\u000f\u000aA'\u0042\u0022\u005c\\\"\/"`:                                                 `"€$\u000f\nA'B\"\\\\\"/"`,
		`"\u2028<>&"`:                         "\"\u2028<>&\"",
		`{"\ud83d\ude00":1,"\ufb33":2,"a":3}`: "{\"a\":3,\"\U0001F600\":1,\"\ufb33\":2}",
	} {
		dec := json.NewDecoder(strings.NewReader(in))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := canonicalJSON(&b, v); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("canonical(%s) = %s, want %s", in, b.String(), want)
		}
	}
}
