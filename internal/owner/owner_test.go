package owner

import "testing"

func TestOwner(t *testing.T) {
	for _, c := range []struct{ caller, context string }{{"alice", "c1"}, {"", "c"}, {"acme/alice", "c1"}, {"a:b/c", "d/e:f"}} {
		got, ok := Caller(Of(c.caller, c.context))
		if !ok || got != c.caller {
			t.Errorf("Caller(Of(%q, %q)) = %q, %v", c.caller, c.context, got, ok)
		}
	}
	if Of("acme", "alice/c1") == Of("acme/alice", "c1") {
		t.Error("two callers spell one owner")
	}
	for _, id := range []string{"", "x", "5:ali/ce", "05:alice/c", "-1:/x", "9:short/", "3:abc"} {
		if c, ok := Caller(id); ok {
			t.Errorf("Caller(%q) = %q, true; want not an owner id", id, c)
		}
	}
}
