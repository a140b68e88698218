// Command jsgen writes the JS package's files that state what the Go code states, so the two
// cannot drift (`go generate ./...`; make check.generate keeps them current):
//
//	go run ./internal/jsgen -closed js/src/closed.js                 what a closed adapter answers (a2aclient.ClosedPort)
//	go run ./internal/jsgen -checks conformance/checks.json \
//		-o js/src/conformance/checks.js                              the conformance checks' table
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	closed := flag.String("closed", "", "write what a closed adapter answers to this file")
	checks := flag.String("checks", "", "the conformance table (checks.json) to write as a JS module")
	out := flag.String("o", "", "with -checks: the file to write")
	flag.Parse()
	var err error
	switch {
	case *closed != "":
		err = os.WriteFile(*closed, closedAnswers(), 0o644)
	case *checks != "" && *out != "":
		err = writeChecks(*checks, *out)
	default:
		err = fmt.Errorf("want -closed FILE, or -checks FILE -o FILE")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsgen:", err)
		os.Exit(1)
	}
}
