package optiontable

// Option is one option: its Go field and JS name, what it is, what it defaults to, and its words
// in the Go doc, the TypeScript declaration and docs/options.md.
type Option struct {
	// Go is the field of a2aport.Options ("" for an option of the JS package alone), GoType its type,
	// Doc its doc comment (without the slashes); Gap puts a blank line before it.
	Go, GoType, Doc string
	Gap             bool
	// GoDefault and GoMeaning are its row in the Go table of docs/options.md; an option without
	// them shares the row above (its name is added to that row's).
	GoDefault, GoMeaning string

	// JS is the option of createA2ABackendAdapter ("" for a Go option alone), TSType its type in
	// index.d.ts, TSDoc its doc there; JSDefault and JSMeaning its row in docs/options.md.
	JS, TSType, TSDoc    string
	JSDefault, JSMeaning string

	// Kind says how the option is checked and how it reaches the module.
	Kind Kind
	// Wire: the option crosses to the module under its JS name, converted by its Kind (a Duration
	// in whole milliseconds). Options of Kind Special cross by hand (internal/abi init.go).
	Wire bool
	// Default is the Go expression of a number's default (the constant Default<Go>), used when the
	// option is 0; Min the smallest value it may take above 0 (default: 1, or 1 ms), with a constant
	// Min<Go> when MinConst; Off: a negative value turns what it bounds off.
	Default, Min string
	MinConst     bool
	Off          bool
	// Values are what an Enum may be, as the wire and JS write them ("" is always allowed: the default).
	Values []string
}

// Kind is what an option holds.
type Kind int

const (
	String   Kind = iota // a string, as it is
	Strings              // a list of strings
	Bool                 // true or false
	Duration             // Go time.Duration; JS and the wire: whole milliseconds
	Count                // a whole number
	Bytes                // a whole number of bytes
	Enum                 // one of Values
	Special              // checked and carried by hand
	Host                 // stays with the caller's runtime: never crosses to the module
)

// Numeric says whether the option is a number with a default, a minimum and maybe an off.
func (o Option) Numeric() bool { return o.Kind == Duration || o.Kind == Count || o.Kind == Bytes }
