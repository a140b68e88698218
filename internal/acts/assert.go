package acts

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// operators are the keys of an assertion object (ACTS §5.1), plus "items", which the suite
// uses although the grammar lacks it: a map applies to every element, a list to the elements
// at those positions.
var operators = map[string]bool{
	"type": true, "exists": true, "absent": true,
	"contains": true, "matches": true, "starts_with": true, "ends_with": true,
	"gte": true, "lte": true, "gt": true, "lt": true,
	"count": true, "count_gte": true, "count_lte": true,
	"one_of": true, "all_of": true, "any_of": true, "not": true,
	"items": true,
}

// Mismatch is a failed assertion: where, what was expected and what was there.
type Mismatch struct {
	Path     string
	Expected string
	Actual   string
}

func (m *Mismatch) Error() string {
	p := m.Path
	if p == "" {
		p = "(root)"
	}
	return fmt.Sprintf("%s: expected %s, got %s", p, m.Expected, m.Actual)
}

func miss(path, expected string, actual any, present bool) *Mismatch {
	a := "nothing (absent)"
	if present {
		a = show(actual)
	}
	return &Mismatch{Path: path, Expected: expected, Actual: a}
}

// show renders a value briefly for a failure message.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(b)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// Match checks actual (present says whether the field exists at all) against an ACTS
// assertion: a bare scalar is equality, a list matches the elements at its positions, a map
// holds operators and/or nested fields (ACTS §5.2-§5.4), all of which must hold.
func Match(actual any, present bool, exp any, path string) *Mismatch {
	switch e := exp.(type) {
	case map[string]any:
		return matchMap(actual, present, e, path)
	case []any:
		if !present {
			return miss(path, "an array", actual, present)
		}
		arr, ok := actual.([]any)
		if !ok {
			return miss(path, "an array", actual, present)
		}
		if len(arr) < len(e) {
			return miss(path, fmt.Sprintf("at least %d elements", len(e)), actual, present)
		}
		for i, el := range e {
			if m := Match(arr[i], true, el, fmt.Sprintf("%s[%d]", path, i)); m != nil {
				return m
			}
		}
		return nil
	default:
		if !present {
			return miss(path, show(exp), actual, present)
		}
		if !equal(actual, exp) {
			return miss(path, show(exp), actual, present)
		}
		return nil
	}
}

// isOperator says whether key k of an assertion map is an operator. A key that names an
// operator taking a scalar but holds a map is a field of that name (RFC 7807's "type", a
// "count" field): the ACTS grammar does not tell the two apart.
func isOperator(k string, v any) bool {
	if !operators[k] {
		return false
	}
	switch k {
	case "one_of", "all_of", "any_of", "not", "items":
		return true
	}
	_, isMap := v.(map[string]any)
	return !isMap
}

func matchMap(actual any, present bool, e map[string]any, path string) *Mismatch {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if v, ok := e["absent"]; ok && truthy(v) {
		if present {
			return miss(path, "the field to be absent", actual, present)
		}
		return nil
	}
	// Operators that decide presence themselves.
	for _, k := range []string{"any_of", "one_of", "all_of", "not"} {
		if _, ok := e[k]; ok {
			if m := operator(actual, present, k, e[k], path); m != nil {
				return m
			}
		}
	}
	for _, k := range keys {
		if !isOperator(k, e[k]) {
			continue
		}
		switch k {
		case "any_of", "one_of", "all_of", "not", "absent":
			continue
		}
		if !present {
			return miss(path, fmt.Sprintf("a value (%s: %s)", k, show(e[k])), actual, present)
		}
		if m := operator(actual, present, k, e[k], path); m != nil {
			return m
		}
	}
	for _, k := range keys {
		if isOperator(k, e[k]) {
			continue
		}
		sub := path + "." + k
		if path == "" {
			sub = k
		}
		if !present {
			return miss(sub, "a value under an absent parent", nil, false)
		}
		obj, ok := actual.(map[string]any)
		if !ok {
			return miss(path, fmt.Sprintf("an object with field %q", k), actual, present)
		}
		v, has := obj[k]
		if m := Match(v, has, e[k], sub); m != nil {
			return m
		}
	}
	return nil
}

func operator(actual any, present bool, op string, arg any, path string) *Mismatch {
	switch op {
	case "exists":
		if truthy(arg) != present {
			return miss(path, fmt.Sprintf("exists: %v", truthy(arg)), actual, present)
		}
	case "type":
		want := fmt.Sprint(arg)
		if got := jsonType(actual); got != want {
			return miss(path, "type "+want, actual, present)
		}
	case "contains", "starts_with", "ends_with", "matches":
		s, ok := actual.(string)
		a := fmt.Sprint(arg)
		if !ok {
			return miss(path, fmt.Sprintf("a string (%s %q)", op, a), actual, present)
		}
		var pass bool
		switch op {
		case "contains":
			pass = strings.Contains(s, a)
		case "starts_with":
			pass = strings.HasPrefix(s, a)
		case "ends_with":
			pass = strings.HasSuffix(s, a)
		case "matches":
			re, err := regexp.Compile(a)
			if err != nil {
				return &Mismatch{Path: path, Expected: "a valid regular expression " + a, Actual: err.Error()}
			}
			pass = re.MatchString(s)
		}
		if !pass {
			return miss(path, fmt.Sprintf("%s %q", op, a), actual, present)
		}
	case "gte", "lte", "gt", "lt":
		x, ok1 := number(actual)
		y, ok2 := number(arg)
		if !ok1 || !ok2 {
			return miss(path, fmt.Sprintf("a number (%s %v)", op, arg), actual, present)
		}
		pass := map[string]bool{"gte": x >= y, "lte": x <= y, "gt": x > y, "lt": x < y}[op]
		if !pass {
			return miss(path, fmt.Sprintf("%s %v", op, arg), actual, present)
		}
	case "count", "count_gte", "count_lte":
		arr, ok := actual.([]any)
		n, _ := number(arg)
		if !ok {
			return miss(path, fmt.Sprintf("an array (%s %v)", op, arg), actual, present)
		}
		l := float64(len(arr))
		pass := map[string]bool{"count": l == n, "count_gte": l >= n, "count_lte": l <= n}[op]
		if !pass {
			return miss(path, fmt.Sprintf("%s %v (length %d)", op, arg, len(arr)), actual, present)
		}
	case "items":
		arr, ok := actual.([]any)
		if !ok {
			return miss(path, "an array (items)", actual, present)
		}
		if list, isList := arg.([]any); isList {
			return Match(arr, true, list, path)
		}
		for i, el := range arr {
			if m := Match(el, true, arg, fmt.Sprintf("%s[%d]", path, i)); m != nil {
				return m
			}
		}
	case "one_of", "any_of":
		alts, _ := arg.([]any)
		var firsts []string
		for _, alt := range alts {
			var m *Mismatch
			if _, isMap := alt.(map[string]any); isMap || op == "any_of" {
				m = Match(actual, present, alt, path)
			} else if !present || !equal(actual, alt) {
				m = miss(path, show(alt), actual, present)
			}
			if m == nil {
				return nil
			}
			firsts = append(firsts, m.Error())
		}
		return &Mismatch{Path: path, Expected: op + " " + show(alts), Actual: strings.Join(firsts, " | ")}
	case "all_of":
		alts, _ := arg.([]any)
		for _, alt := range alts {
			if m := Match(actual, present, alt, path); m != nil {
				return m
			}
		}
	case "not":
		if Match(actual, present, arg, path) == nil {
			return miss(path, "not "+show(arg), actual, present)
		}
	}
	return nil
}

func truthy(v any) bool {
	b, ok := v.(bool)
	return ok && b
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	if _, ok := number(v); ok {
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case int32:
		return float64(n), true
	case uint32:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func equal(a, b any) bool {
	if x, ok := number(a); ok {
		if y, ok := number(b); ok {
			return math.Abs(x-y) < 1e-9
		}
		return false
	}
	switch bv := b.(type) {
	case string:
		as, ok := a.(string)
		return ok && as == bv
	case bool:
		ab, ok := a.(bool)
		return ok && ab == bv
	case nil:
		return a == nil
	}
	return show(a) == show(b)
}

// segment is one step of a dot path: a field, an index, or [*].
type segment struct {
	field string
	index int // -1: none, -2: wildcard
}

var pathPart = regexp.MustCompile(`^([^\[\]]*)((?:\[(?:\d+|\*)\])*)$`)
var pathIndex = regexp.MustCompile(`\[(\d+|\*)\]`)

func parsePath(p string) ([]segment, error) {
	var segs []segment
	if strings.TrimSpace(p) == "" {
		return nil, nil
	}
	for _, part := range strings.Split(p, ".") {
		m := pathPart.FindStringSubmatch(part)
		if m == nil {
			return nil, fmt.Errorf("bad path %q", p)
		}
		if m[1] != "" {
			segs = append(segs, segment{field: m[1], index: -1})
		}
		for _, ix := range pathIndex.FindAllStringSubmatch(m[2], -1) {
			if ix[1] == "*" {
				segs = append(segs, segment{index: -2})
			} else {
				n, _ := strconv.Atoi(ix[1])
				segs = append(segs, segment{index: n})
			}
		}
	}
	return segs, nil
}

// Resolve follows a dot path (task.artifacts[0].parts[*].text) from root; wildcards give
// every element. It returns the values found.
func Resolve(root any, path string) ([]any, error) {
	segs, err := parsePath(path)
	if err != nil {
		return nil, err
	}
	cur := []any{root}
	for _, s := range segs {
		var next []any
		for _, v := range cur {
			switch {
			case s.field != "":
				if obj, ok := v.(map[string]any); ok {
					if x, has := obj[s.field]; has {
						next = append(next, x)
					}
				}
			case s.index == -2:
				if arr, ok := v.([]any); ok {
					next = append(next, arr...)
				}
			default:
				if arr, ok := v.([]any); ok && s.index < len(arr) {
					next = append(next, arr[s.index])
				}
			}
		}
		cur = next
	}
	return cur, nil
}

// resolveOne is Resolve for a path without wildcards.
func resolveOne(root any, path string) (any, bool) {
	vs, err := Resolve(root, path)
	if err != nil || len(vs) != 1 {
		return nil, false
	}
	return vs[0], true
}

// until evaluates a repeat condition (ACTS §9.1): "path == v", "path != v", "path in [a, b]".
func until(root any, expr string) (bool, error) {
	expr = strings.TrimSpace(expr)
	unq := func(s string) string { return strings.Trim(strings.TrimSpace(s), `"'`) }
	val := func(p string) string {
		v, ok := resolveOne(root, strings.TrimSpace(p))
		if !ok {
			return "\x00absent"
		}
		if s, isStr := v.(string); isStr {
			return s
		}
		return show(v)
	}
	if i := strings.Index(expr, "!="); i > 0 {
		return val(expr[:i]) != unq(expr[i+2:]), nil
	}
	if i := strings.Index(expr, "=="); i > 0 {
		return val(expr[:i]) == unq(expr[i+2:]), nil
	}
	if i := strings.Index(expr, " in "); i > 0 {
		list := strings.TrimSpace(expr[i+4:])
		if !strings.HasPrefix(list, "[") || !strings.HasSuffix(list, "]") {
			return false, fmt.Errorf("until %q: a list in [] is expected after in", expr)
		}
		got := val(expr[:i])
		for _, item := range strings.Split(list[1:len(list)-1], ",") {
			if got == unq(item) {
				return true, nil
			}
		}
		return false, nil
	}
	return false, fmt.Errorf("until %q: not path == v, path != v or path in [..]", expr)
}
