package acts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml"
)

// Document is one ACTS file (ACTS §2).
type Document struct {
	ACTSVersion string            `yaml:"acts_version"`
	SpecVersion string            `yaml:"spec_version"`
	SpecRef     string            `yaml:"spec_ref"`
	Variables   map[string]string `yaml:"variables"`
	Include     []string          `yaml:"include"`
	Suites      []*Suite          `yaml:"suites"`

	// Path is the file the document was read from.
	Path string `yaml:"-"`
}

// Suite is a named group of tests (ACTS §3.1).
type Suite struct {
	ID          string   `yaml:"id"`
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Tags        []string `yaml:"tags"`
	Tests       []*Test  `yaml:"tests"`

	// Doc is the document that defines the suite: its variables and spec version apply.
	Doc *Document `yaml:"-"`
}

// Test is one conformance scenario (ACTS §3.2).
type Test struct {
	ID                 string           `yaml:"id"`
	Name               string           `yaml:"name"`
	Description        string           `yaml:"description"`
	SpecRef            string           `yaml:"spec_ref"`
	Level              string           `yaml:"level"`
	Tags               []string         `yaml:"tags"`
	Transport          []string         `yaml:"transport"`
	Preconditions      *Preconditions   `yaml:"preconditions"`
	RequiresBehaviors  []string         `yaml:"requires_behaviors"`
	RunnerRequirements []string         `yaml:"runner_requirements"`
	Steps              []*Step          `yaml:"steps"`
	Assertions         []map[string]any `yaml:"assertions"`
}

// Preconditions say what the card must advertise for a test to apply (ACTS §3.3).
type Preconditions struct {
	Capabilities map[string]any `yaml:"capabilities"`
	Skills       []struct {
		ID string `yaml:"id"`
	} `yaml:"skills"`
	Transport   []string `yaml:"transport"`
	Extensions  []string `yaml:"extensions"`
	Description string   `yaml:"description"`
}

// Step is a server, raw, assertion or client step (ACTS §4).
type Step struct {
	ID          string `yaml:"id"`
	Description string `yaml:"description"`

	Operation    string            `yaml:"operation"`
	Params       map[string]any    `yaml:"params"`
	Expect       map[string]any    `yaml:"expect"`
	ExpectError  map[string]any    `yaml:"expect_error"`
	ExpectStream map[string]any    `yaml:"expect_stream"`
	Capture      map[string]string `yaml:"capture"`
	Assertions   []map[string]any  `yaml:"assertions"`
	Repeat       *Repeat           `yaml:"repeat"`
	DelayMS      int               `yaml:"delay_ms"`

	Raw *RawRequest `yaml:"raw"`

	Assertion map[string]any `yaml:"assertion"`

	ClientResponse map[string]any `yaml:"client_response"`
	ExpectParsed   map[string]any `yaml:"expect_parsed"`
}

// RawRequest is a wire-level request (ACTS §4.4).
type RawRequest struct {
	Method  string            `yaml:"method"`
	Path    string            `yaml:"path"`
	Headers map[string]string `yaml:"headers"`
	Body    any               `yaml:"body"`
	BodyRaw *string           `yaml:"body_raw"`
}

// Repeat re-runs a step until a condition holds (ACTS §9).
type Repeat struct {
	Until       string `yaml:"until"`
	MaxAttempts int    `yaml:"max_attempts"`
	DelayMS     *int   `yaml:"delay_ms"`
	Backoff     string `yaml:"backoff"`
}

// Load reads an ACTS file and, recursively, the files it includes (paths relative to the
// including file). Documents come back in reading order, the including one first.
func Load(path string) ([]*Document, error) {
	var docs []*Document
	seen := map[string]bool{}
	var load func(string) error
	load = func(p string) error {
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		if seen[abs] {
			return nil
		}
		seen[abs] = true
		data, err := os.ReadFile(abs)
		if err != nil {
			return err
		}
		var doc Document
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		doc.Path = abs
		if err := doc.validate(); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for _, s := range doc.Suites {
			s.Doc = &doc
		}
		docs = append(docs, &doc)
		for _, inc := range doc.Include {
			if err := load(filepath.Join(filepath.Dir(abs), inc)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := load(path); err != nil {
		return nil, err
	}
	return docs, nil
}

// validate checks the structure ACTS §2-§4 requires (ACTS §12.1); problems of single tests
// are reported with the test (Test.problem), not here.
func (d *Document) validate() error {
	if d.ACTSVersion == "" {
		return fmt.Errorf("acts_version missing")
	}
	if len(d.Suites) == 0 && len(d.Include) == 0 {
		return fmt.Errorf("neither suites nor include")
	}
	for i, s := range d.Suites {
		if s.ID == "" || len(s.Tests) == 0 {
			return fmt.Errorf("suites[%d]: id and tests are required", i)
		}
	}
	return nil
}

// problem is what makes a test unrunnable as written, or "".
func (t *Test) problem() string {
	switch {
	case t.ID == "":
		return "test without id"
	case t.Level != "must" && t.Level != "should" && t.Level != "may":
		return fmt.Sprintf("level %q is not must, should or may", t.Level)
	case len(t.Steps) == 0:
		return "test without steps"
	}
	for i, s := range t.Steps {
		kinds := 0
		for _, set := range []bool{s.Operation != "", s.Raw != nil, s.Assertion != nil, s.ClientResponse != nil} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			return fmt.Sprintf("steps[%d] (%s): exactly one of operation, raw, assertion, client_response is required", i, s.ID)
		}
	}
	return ""
}

// Tests lists every test of the documents with its suite, in file order.
func Tests(docs []*Document) []TestRef {
	var out []TestRef
	for _, d := range docs {
		for _, s := range d.Suites {
			for _, t := range s.Tests {
				out = append(out, TestRef{Suite: s, Test: t})
			}
		}
	}
	return out
}

// TestRef is a test with the suite that holds it.
type TestRef struct {
	Suite *Suite
	Test  *Test
}

// bindingName maps the ACTS binding names (ACTS §3.2: jsonrpc, grpc, rest) to the A2A card's
// protocolBinding values (A2A spec §5.8/§8.3: JSONRPC, GRPC, HTTP+JSON).
func bindingName(acts string) string {
	switch strings.ToLower(acts) {
	case "jsonrpc":
		return "JSONRPC"
	case "grpc":
		return "GRPC"
	case "rest", "http+json", "http_json":
		return "HTTP+JSON"
	}
	return strings.ToUpper(acts)
}
