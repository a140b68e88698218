package tests

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/internal/testkit/agent"
	"github.com/a2aport/a2aport/internal/testkit/pgtest"
)

// TestFacadeClusterStoresNoCredential: in cluster mode a2a-go's server writes a request's service
// parameters (its headers) into the work queue it shares through PostgreSQL; the facade gives it
// the request without the caller's credentials once they named the caller, so while a task runs
// no row of any table holds the caller's bearer token, cookie or proxy credentials.
func TestFacadeClusterStoresNoCredential(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Start(t)
	pool, err := pgxpool.New(context.Background(), dsn) // the test's own, to read the tables
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	c := clusterNode(t, dsn, "node-1")
	cfg := c.Config()
	inner, err := adapter.New(a2aport.Options{AgentCardURL: server.CardURL(agent.Variants()[0]), WorkStore: c.WorkStore()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = inner.Close() })
	card := serveFacade(t, inner, facade.Options{Name: "facade", Authenticate: bearerCaller, Cluster: &cfg})
	base := strings.TrimSuffix(card, facade.CardPath)
	h := http.Header{"Content-Type": {"application/json"}, "A2A-Version": {"1.0"}, "Authorization": {"Bearer secretalice-token"},
		"Cookie": {"session=COOKIE-SECRET-7"}, "Proxy-Authorization": {"Basic PROXY-SECRET-8"}}
	instruction := "hold while the database is read (credentials)"
	status, body := postJSON(t, base+facade.EndpointPath, h,
		`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"s1","role":"ROLE_USER","parts":[{"text":"`+instruction+`"}]},"configuration":{"returnImmediately":true}}}`)
	if status != 200 || !strings.Contains(body, `"result"`) {
		t.Fatalf("the message: %d %s", status, body)
	}
	if err := server.WaitStarted(testContext(t), instruction); err != nil {
		t.Fatal(err)
	}
	task := between(body, `"id":"`, `"`)
	defer postJSON(t, base+facade.EndpointPath, h, `{"jsonrpc":"2.0","id":3,"method":"CancelTask","params":{"id":"`+task+`"}}`)
	rows, err := pool.Query(testContext(t), `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	seen := 0
	for _, table := range tables {
		var text *string
		if err := pool.QueryRow(testContext(t), fmt.Sprintf(`SELECT string_agg(t::text, ' ') FROM %q t`, table)).Scan(&text); err != nil {
			t.Fatal(err)
		}
		if text == nil {
			continue
		}
		seen += len(*text)
		for _, secret := range []string{"secretalice-token", "COOKIE-SECRET-7", "PROXY-SECRET-8"} {
			if strings.Contains(*text, secret) {
				t.Errorf("table %s holds the caller's %s", table, secret)
			}
		}
	}
	if seen == 0 || !strings.Contains(fmt.Sprint(tables), "task") {
		t.Errorf("the database holds nothing to search (tables %v, %d bytes)", tables, seen)
	}
}

// between is the text of s after the first before and up to the next after.
func between(s, before, after string) string {
	_, rest, _ := strings.Cut(s, before)
	v, _, _ := strings.Cut(rest, after)
	return v
}
