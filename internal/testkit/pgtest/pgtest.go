// Package pgtest runs a real PostgreSQL server for tests: Debian's package (apt-get install -y
// postgresql; .ci/run installs it), initdb and pg_ctl in a temporary folder, on 127.0.0.1 only, as
// the unprivileged user "nobody" when the tests run as root (the server refuses root).
//
//	dsn := pgtest.Start(t) // postgres://a2aport@127.0.0.1:PORT/postgres?sslmode=disable
package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
)

// bin finds a PostgreSQL program: on PATH, else in the newest /usr/lib/postgresql/*/bin.
func bin(t testing.TB, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Strings(dirs)
	for i := len(dirs) - 1; i >= 0; i-- {
		if p := filepath.Join(dirs[i], name); fileExists(p) {
			return p
		}
	}
	t.Fatalf("pgtest: no %s: apt-get install -y postgresql", name)
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Start runs a fresh server until the test ends and returns its DSN (user a2aport, trust auth).
func Start(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "a2aport-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(bin(t, name), args...)
		if os.Geteuid() == 0 {
			nobody, err := user.Lookup("nobody")
			if err != nil {
				t.Fatal(err)
			}
			uid, _ := strconv.Atoi(nobody.Uid)
			gid, _ := strconv.Atoi(nobody.Gid)
			if err := os.Chown(dir, uid, gid); err != nil {
				t.Fatal(err)
			}
			cmd = exec.Command("runuser", append([]string{"-u", "nobody", "--", bin(t, name)}, args...)...)
		}
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("pgtest: %s %v: %v\n%s", name, args, err, out)
		}
	}
	data := filepath.Join(dir, "data")
	run("initdb", "-D", data, "-U", "a2aport", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C")
	port := freePort(t)
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -c unix_socket_directories=%s -c fsync=off -c full_page_writes=off", port, dir)
	run("pg_ctl", "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start")
	t.Cleanup(func() {
		cmd := exec.Command(bin(t, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop")
		if os.Geteuid() == 0 {
			cmd = exec.Command("runuser", "-u", "nobody", "--", bin(t, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop")
		}
		_ = cmd.Run() // the folder goes with it
	})
	return fmt.Sprintf("postgres://a2aport@127.0.0.1:%d/postgres?sslmode=disable", port)
}

func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }() // the server takes the port over
	return ln.Addr().(*net.TCPAddr).Port
}
