package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

var versionCommand = &subcommand{
	name: "version", args: "", summary: "print a2aport's version",
	about:    "Prints a2aport's version (the module version it was built from), the A2A versions it speaks and the Go it was built with. -v and --version print it too.",
	examples: `$ a2aport version`,
	operands: operandNone,
	run: func(_ context.Context, args []string, s streams) int {
		if len(args) > 0 {
			usageError(s.stderr, "version", "takes no arguments")
			return exitUsage
		}
		fmt.Fprintln(s.stdout, versionLine())
		return exitOK
	},
}

// versionLine is the version of the binary: its module's, "(devel)" for a build of a checkout
// (its VCS revision then, when the build recorded one).
func versionLine() string {
	version, revision, goVersion := "(devel)", "", ""
	if info, ok := debug.ReadBuildInfo(); ok {
		goVersion = info.GoVersion
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				revision = " " + s.Value[:12]
			}
		}
	}
	return fmt.Sprintf("a2aport %s%s (A2A 1.0, and 0.3 when asked; %s)", version, revision, goVersion)
}
