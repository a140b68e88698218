package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The A2A CLI specification's options may come from the environment or a dotenv file
// (SPEC.md §7.2, §8.3): A2ACLI_ and the long flag in upper snake case, resolved flag >
// environment > the local .env (or --config FILE) > the global one > the built-in default.
// Only the specification's own options are read so: a2aport's other flags are flags only, and
// --stream, -h and -v never come from anywhere but the command line (§11.3).

// settingNames are the flags a setting may give; the commands that have them read them.
var settingNames = []string{"a2a-version", "agent-card", "api-key", "async", "bearer", "context-id", "debug", "history",
	"insecure", "metadata", "output", "poll-interval", "svc-param", "task-id", "timeout", "transport", "verbose", "wait"}

// secretSettings are the settings that carry credentials: config show never prints their values.
var secretSettings = map[string]bool{"bearer": true, "api-key": true}

// setting is an option's effective value and where it came from.
type setting struct {
	name, value, source string
}

// shown is the setting's value as config show and help print it: a credential as "(set)".
func (s setting) shown() string {
	if secretSettings[s.name] && s.value != "" {
		return "(set)"
	}
	return s.value
}

// settingsEnv is the variable of an option.
func settingsEnv(name string) string {
	return "A2ACLI_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// dotenvFiles are the files that may give settings, the first wins: --config's (else the nearest
// .env from the working directory up), then the user's (a2aport/.env under the user config
// directory, $XDG_CONFIG_HOME or ~/.config on Linux).
func dotenvFiles(explicit string) []string {
	var files []string
	if explicit != "" {
		files = append(files, explicit)
	} else if dir, err := os.Getwd(); err == nil {
		for {
			if path := filepath.Join(dir, ".env"); exists(path) {
				files = append(files, path)
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	if dir, err := os.UserConfigDir(); err == nil {
		files = append(files, filepath.Join(dir, "a2aport", ".env"))
	}
	return files
}

// readDotenv reads KEY=value lines (comments, blank lines, "export " and quotes allowed). A file
// that does not exist gives nothing; --config's must exist.
func readDotenv(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	vals := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want KEY=value", path, n)
		}
		value = strings.TrimSpace(value)
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		vals[strings.TrimSpace(key)] = value
	}
	return vals, sc.Err()
}

// resolveSettings gives every setting flag of fs that the command line left unset its value from
// the environment or a dotenv file, and returns each one's effective value and source. A dotenv
// file that gives a credential and that others may read is named in a warning.
func resolveSettings(fs *flag.FlagSet, explicitConfig string, warn io.Writer) ([]setting, error) {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	type file struct {
		path string
		vals map[string]string
	}
	var files []file
	for i, path := range dotenvFiles(explicitConfig) {
		vals, err := readDotenv(path)
		switch {
		case errors.Is(err, os.ErrNotExist) && (explicitConfig == "" || i > 0):
			continue
		case err != nil:
			return nil, fmt.Errorf("--config: %w", err)
		}
		files = append(files, file{path, vals})
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			for name := range secretSettings {
				if vals[settingsEnv(name)] != "" {
					fmt.Fprintf(warn, "a2aport: warning: %s gives %s and others may read it: chmod 600 %s\n", path, settingsEnv(name), path)
					break
				}
			}
		}
	}
	var out []setting
	for _, name := range settingNames {
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		s := setting{name: name, value: f.Value.String(), source: "default"}
		if given[name] || given[shortOf[name]] {
			s.source = "flag --" + name
			out = append(out, s)
			continue
		}
		key := settingsEnv(name)
		value, found := os.LookupEnv(key)
		if found {
			s.source = "environment " + key
		}
		for _, file := range files {
			if v, ok := file.vals[key]; ok && !found {
				value, found, s.source = v, true, file.path
			}
		}
		if found {
			if err := fs.Set(name, value); err != nil {
				return nil, fmt.Errorf("%s (from %s): %w", key, s.source, err)
			}
			s.value = f.Value.String()
		}
		out = append(out, s)
	}
	return out, nil
}

// shortOf is the one-letter alias of a setting's flag.
var shortOf = map[string]string{"agent-card": "a", "output": "o"}
