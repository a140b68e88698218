// Package optiontable is every option of the adapter, once: its Go field, its JS name, its kind,
// default and range, and its words in the docs. go generate writes from it what used to be copied
// by hand (cmd/optiongen): a2aport's Options struct and Default constants (options.go), the
// options that cross to the module and their conversion (internal/abi/options_gen.go), the
// defaults and ranges of the numbers (internal/a2aclient/options_gen.go), the JS package's option
// table (js/src/optiontable.js), index.d.ts's AdapterOptions, and both tables of docs/options.md.
//
// Adding an option is one entry, then its behaviour:
//
//	{
//		Go: "MaxWorkBytes", GoType: "int", Doc: "MaxWorkBytes bounds all the artifacts of one Work together.",
//		JS: "maxWorkBytes", TSType: "number", TSDoc: "All the artifacts of one Work together. Default 256 MiB.",
//		JSDefault: "256 MiB", JSMeaning: "as Go's `MaxWorkBytes`",
//		Kind: Bytes, Wire: true, Default: "256 << 20",
//	},
package optiontable
