package bench

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// PackageSize is the code one Go package contributes to a module.
type PackageSize struct {
	Package string
	Bytes   int
}

// SizeByPackage reads a WebAssembly module's code section and its "name" section and adds up the
// size of each function body by the Go package in the function's name.
func SizeByPackage(module []byte) ([]PackageSize, error) {
	if len(module) < 8 || !bytes.Equal(module[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	var bodies []int // body sizes of the defined functions, in order
	names := map[uint32]string{}
	imported := uint32(0)
	r := module[8:]
	for len(r) > 0 {
		id := r[0]
		size, n := binary.Uvarint(r[1:])
		if n <= 0 || uint64(len(r)-1-n) < size {
			return nil, errors.New("truncated section")
		}
		sec := r[1+n : 1+n+int(size)]
		r = r[1+n+int(size):]
		switch id {
		case 2: // imports: functions among them take the first indices
			count, k := binary.Uvarint(sec)
			p := sec[k:]
			for range count {
				for range 2 { // module and field names
					l, k := binary.Uvarint(p)
					p = p[k+int(l):]
				}
				kind := p[0]
				p = p[1:]
				switch kind {
				case 0: // function: a type index
					imported++
					_, k := binary.Uvarint(p)
					p = p[k:]
				case 1: // table: reftype, limits
					p = skipLimits(p[1:])
				case 2: // memory: limits
					p = skipLimits(p)
				case 3: // global: valtype, mutability
					p = p[2:]
				}
			}
		case 10: // code
			count, k := binary.Uvarint(sec)
			p := sec[k:]
			for range count {
				l, k := binary.Uvarint(p)
				bodies = append(bodies, k+int(l))
				p = p[k+int(l):]
			}
		case 0: // custom: "name", subsection 1 holds function names
			l, k := binary.Uvarint(sec)
			if string(sec[k:k+int(l)]) != "name" {
				continue
			}
			p := sec[k+int(l):]
			for len(p) > 0 {
				sub := p[0]
				sl, k := binary.Uvarint(p[1:])
				body := p[1+k : 1+k+int(sl)]
				p = p[1+k+int(sl):]
				if sub != 1 {
					continue
				}
				count, k := binary.Uvarint(body)
				body = body[k:]
				for range count {
					idx, k := binary.Uvarint(body)
					body = body[k:]
					nl, k := binary.Uvarint(body)
					names[uint32(idx)] = string(body[k : k+int(nl)])
					body = body[k+int(nl):]
				}
			}
		}
	}
	sums := map[string]int{}
	for i, size := range bodies {
		sums[goPackage(names[imported+uint32(i)])] += size
	}
	out := make([]PackageSize, 0, len(sums))
	for p, b := range sums {
		out = append(out, PackageSize{p, b})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Bytes > out[j].Bytes })
	return out, nil
}

func skipLimits(p []byte) []byte {
	flags := p[0]
	_, k := binary.Uvarint(p[1:])
	p = p[1+k:]
	if flags&1 != 0 {
		_, k = binary.Uvarint(p)
		p = p[k:]
	}
	return p
}

// goPackage is the package in a function name of Go's wasm name section, where the path's
// slashes are underscores: "github.com_a2aproject_a2a_go_v2_a2aclient.(*T).M" gives
// "github.com_a2aproject_a2a_go_v2_a2aclient", "net_http.Get" gives "net_http".
func goPackage(name string) string {
	if name == "" {
		return "(unnamed)"
	}
	rest := name
	domain := ""
	if i := strings.IndexByte(name, '_'); i > 0 && strings.Contains(name[:i], ".") && !strings.ContainsAny(name[:i], "(*") {
		domain, rest = name[:i], name[i:] // a module path's host: its dots are not the separator
	}
	if dot := strings.IndexByte(rest, '.'); dot >= 0 {
		return domain + rest[:dot]
	}
	return "(other)"
}

// Top groups the sizes into the first n packages and the rest.
func Top(sizes []PackageSize, n int) []PackageSize {
	if len(sizes) <= n {
		return sizes
	}
	rest := PackageSize{Package: fmt.Sprintf("(%d more packages)", len(sizes)-n)}
	for _, s := range sizes[n:] {
		rest.Bytes += s.Bytes
	}
	return append(append([]PackageSize(nil), sizes[:n]...), rest)
}
