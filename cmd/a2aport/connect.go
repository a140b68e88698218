package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/adapter"
	"github.com/a2aport/a2aport/host"
)

// connection is the flags every command that talks to an agent takes.
type connection struct {
	token       string
	headers     multi
	credentials multi
	extensions  multi
	module      bool
	native      bool // the default; the flag stays for scripts that name it
	wasmDir     string
}

// multi is a flag that may be given many times.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func (c *connection) register(fs *flag.FlagSet) {
	fs.StringVar(&c.token, "token", "", "bearer `token` (default $A2APORT_TOKEN)")
	fs.Var(&c.headers, "header", "extra request header `K:V` (repeatable)")
	fs.Var(&c.credentials, "credential", "secret for a security scheme of the card: `SCHEME=VALUE` (repeatable; VALUE: a token, basic:USER:PASS, client:ID:SECRET, or @VAR for $VAR)")
	fs.Var(&c.extensions, "extension", "A2A extension `URI` to activate, of those the card declares (repeatable)")
	fs.BoolVar(&c.module, "module", false, "run the client as the WebAssembly module under wazero, as browsers and Node run it (default: the same client in Go)")
	fs.BoolVar(&c.native, "native", false, "run the client in Go (the default)")
	fs.StringVar(&c.wasmDir, "wasm-dir", "", "with --module: `directory` of a2aport.wasm (default $A2APORT_WASM_DIR, then the executable's)")
}

// cardURL accepts an Agent Card URL or an agent's base URL.
func cardURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an http(s) URL", raw)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = a2aport.WellKnownCardPath
	}
	return u.String(), nil
}

// options turns the flags into adapter options (secrets included, never printed).
func (c *connection) options(card string) (a2aport.Options, error) {
	opts := a2aport.Options{AgentCardURL: card, Token: c.token, Extensions: c.extensions}
	if opts.Token == "" {
		opts.Token = os.Getenv("A2APORT_TOKEN")
	}
	for _, h := range c.headers {
		name, value, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return opts, fmt.Errorf("--header %q: want NAME:VALUE", h)
		}
		if opts.Headers == nil {
			opts.Headers = http.Header{}
		}
		opts.Headers.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	for _, raw := range c.credentials {
		name, value, ok := strings.Cut(raw, "=")
		if !ok || name == "" {
			return opts, fmt.Errorf("--credential: want SCHEME=VALUE (the scheme's name on the card)")
		}
		cred, err := parseCredential(value)
		if err != nil {
			return opts, fmt.Errorf("--credential %s: %w", name, err)
		}
		if opts.Credentials == nil {
			opts.Credentials = map[string]a2aport.Credential{}
		}
		opts.Credentials[name] = cred
	}
	return opts, nil
}

// parseCredential reads VALUE of --credential (never echoed in errors).
func parseCredential(value string) (a2aport.Credential, error) {
	if env, ok := strings.CutPrefix(value, "@"); ok {
		v, set := os.LookupEnv(env)
		if !set {
			return a2aport.Credential{}, fmt.Errorf("the environment variable %s is not set", env)
		}
		value = v
	}
	if rest, ok := strings.CutPrefix(value, "basic:"); ok {
		user, pass, _ := strings.Cut(rest, ":")
		return a2aport.Credential{Username: user, Password: pass}, nil
	}
	if rest, ok := strings.CutPrefix(value, "client:"); ok {
		id, secret, found := strings.Cut(rest, ":")
		if !found {
			return a2aport.Credential{}, errors.New("client credentials are client:ID:SECRET")
		}
		return a2aport.Credential{ClientID: id, ClientSecret: secret}, nil
	}
	if value == "" {
		return a2aport.Credential{}, errors.New("empty value")
	}
	return a2aport.Credential{Token: value}, nil
}

// open creates the port: the Go adapter, or with --module the module under wazero. A terminal
// client is judged by how fast it answers: natively it starts in tens of milliseconds, the module
// in hundreds (compiling or loading its code), so the module is for checking that the bytes a
// page runs behave the same.
func (c *connection) open(ctx context.Context, opts a2aport.Options) (a2aport.Port, error) {
	if !c.module || c.native {
		return adapter.New(opts)
	}
	c.configureHost()
	return host.New(ctx, opts)
}

// configureHost points the host at the first directory that has a2aport.wasm (without one the
// host runs the module embedded in the binary), and at
// $A2APORT_WAZERO_CACHE for compiled code (else the host's default, the user's cache folder).
func (c *connection) configureHost() {
	cfg := host.Config{CompilationCacheDir: os.Getenv("A2APORT_WAZERO_CACHE")}
	// ErrConfigured: an earlier connection of this process configured it, from the same places.
	defer func() { _ = host.Configure(cfg) }()
	dirs := []string{c.wasmDir, os.Getenv("A2APORT_WASM_DIR")}
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(exe))
	}
	for _, dir := range dirs {
		if dir != "" && exists(filepath.Join(dir, "a2aport.wasm")) {
			cfg.ModuleDir = dir
			return
		}
	}
}
