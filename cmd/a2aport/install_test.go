package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

const modulePath = "github.com/a2aport/a2aport"

// TestGoInstall: `go install github.com/a2aport/a2aport/cmd/a2aport@VERSION` gives a binary that
// works with nothing else fetched or built. The module is this checkout's HEAD, zipped as the Go
// module proxy serves a release and offered to `go install` through a proxy in a folder (every
// other module comes from the real proxy); the module and build caches start empty. The binary
// then runs from another folder without a Go toolchain on PATH: its help, a Work natively, and a
// Work in the WebAssembly module it carries (nothing of the checkout is there to read).
func TestGoInstall(t *testing.T) {
	t.Parallel()
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not a git checkout: the install is tested from one")
	}
	tmp := t.TempDir()
	dir := func(name string) string {
		d := filepath.Join(tmp, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	const version = "v0.0.1-installtest"
	proxy := dir("proxy")
	publish(t, proxy, strings.TrimSpace(string(root)), version)

	goEnv := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir("home"), "GOPATH=" + dir("gopath"),
		"GOMODCACHE=" + dir("modcache"), "GOCACHE=" + dir("gocache"), "GOBIN=" + dir("bin"),
		"GOPROXY=file://" + proxy + "," + goenv(t, "GOPROXY"), "GONOSUMDB=" + modulePath, "GOFLAGS=", "GOTOOLCHAIN=local",
	}
	t.Cleanup(func() { // the module cache is read-only; go knows how to remove it
		clean := exec.Command("go", "clean", "-modcache")
		clean.Env = goEnv
		_ = clean.Run()
	})
	install := exec.Command("go", "install", modulePath+"/cmd/a2aport@"+version)
	install.Dir, install.Env = dir("elsewhere"), goEnv
	start := time.Now()
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	t.Logf("go install with empty caches: %v", time.Since(start).Round(time.Second))

	bin := filepath.Join(tmp, "bin")
	runEnv := []string{"PATH=" + bin + ":/usr/bin:/bin", "HOME=" + dir("user"), "XDG_CACHE_HOME=" + dir("user-cache"), "A2APORT_WAZERO_CACHE=" + dir("wazero")}
	if out, err := exec.Command("env", append([]string{"-i"}, append(runEnv, "sh", "-c", "command -v go")...)...).Output(); err == nil {
		t.Fatalf("a Go toolchain is on the PATH the binary runs with: %s", out)
	}
	for _, args := range [][]string{
		{"help"},
		{"send", server.CardURL(stream), "complete after go install"},
		{"send", "--module", server.CardURL(stream), "complete after go install, in the module"},
	} {
		cmd := exec.Command(filepath.Join(bin, "a2aport"), args...)
		cmd.Dir, cmd.Env = dir("another-folder"), runEnv
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("a2aport %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
			continue
		}
		if args[0] == "send" && !strings.Contains(stdout.String(), "echo: "+args[len(args)-1]) {
			t.Errorf("a2aport %s printed %q", strings.Join(args, " "), stdout.String())
		}
	}
}

// publish lays out the module at the checkout's HEAD in proxy as the Go module proxy protocol
// has it: @v/list, the version's .info, .mod and .zip.
func publish(t *testing.T, proxy, root, version string) {
	t.Helper()
	at := filepath.Join(proxy, modulePath, "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	var archive bytes.Buffer
	if err := zip.CreateFromVCS(&archive, module.Version{Path: modulePath, Version: version}, root, "HEAD", ""); err != nil {
		t.Fatalf("zipping the module at HEAD: %v", err)
	}
	gomod, err := exec.Command("git", "-C", root, "show", "HEAD:go.mod").Output()
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": fmt.Appendf(nil, `{"Version":%q,"Time":%q}`, version, time.Now().UTC().Format(time.RFC3339)),
		version + ".mod":  gomod,
		version + ".zip":  archive.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func goenv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
