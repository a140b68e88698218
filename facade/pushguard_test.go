package facade

import (
	"errors"
	"net/netip"
	"testing"
)

// TestWebhookGuard: which addresses may be dialled and which URLs registered, without and with an
// allow-list.
func TestWebhookGuard(t *testing.T) {
	t.Parallel()
	none, err := newWebhookGuard(nil)
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[string]bool{
		"93.184.216.34": true, "2606:2800:220:1:248:1893:25c8:1946": true, "8.8.8.8": true,
		"127.0.0.1": false, "127.1.2.3": false, "::1": false, "169.254.169.254": false, "fe80::1": false,
		"10.0.0.1": false, "172.16.0.1": false, "172.31.255.255": false, "192.168.0.1": false, "fc00::1": false, "fd12::1": false,
		"0.0.0.0": false, "::": false, "224.0.0.1": false, "ff02::1": false, "100.64.0.1": false, "255.255.255.255": false,
		"::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "64:ff9b::a00:1": false, "2002:a00:1::": false,
	} {
		if got := none.dialable(netip.MustParseAddr(addr)); got != want {
			t.Errorf("dialable(%s) = %v, want %v", addr, got, want)
		}
	}
	allowed, err := newWebhookGuard([]string{"http://hooks.internal:8080", "https://127.0.0.1:9443", "10.20.0.0/16", "fd00:1::/64"})
	if err != nil {
		t.Fatal(err)
	}
	for url, want := range map[string][2]bool{ // without, with the allow-list
		"https://example.com/hook":        {true, true},
		"http://example.com/hook":         {false, false},
		"http://hooks.internal:8080/x":    {false, true},
		"http://hooks.internal/x":         {false, false}, // another port: another origin
		"https://127.0.0.1:9443/x":        {false, true},
		"https://127.0.0.1:9444/x":        {false, false},
		"https://10.20.1.2/x":             {false, true},
		"http://10.20.1.2:81/x":           {false, true}, // http to an address in an allowed net
		"https://10.21.1.2/x":             {false, false},
		"https://[fd00:1::5]/x":           {false, true},
		"https://169.254.169.254/latest/": {false, false},
		"https://user@example.com/":       {false, false},
		"example.com/hook":                {false, false},
	} {
		for i, g := range []*webhookGuard{none, allowed} {
			err := g.checkURL(url)
			if (err == nil) != want[i] || (err != nil && !errors.Is(err, ErrWebhookRefused)) {
				t.Errorf("checkURL(%s) with allow-list %v = %v, want allowed %v", url, i == 1, err, want[i])
			}
		}
	}
	if !allowed.dialable(netip.MustParseAddr("10.20.3.4")) || allowed.dialable(netip.MustParseAddr("10.21.3.4")) {
		t.Error("the allowed net is not what is dialable")
	}
	for _, bad := range []string{"hooks.internal", "https://h/path", "ftp://h", "https://u:p@h"} {
		if _, err := newWebhookGuard([]string{bad}); err == nil {
			t.Errorf("newWebhookGuard(%q) accepted it", bad)
		}
	}
}
