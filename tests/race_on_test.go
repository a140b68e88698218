//go:build race

package tests

// raceDetector reports whether the tests run under -race.
const raceDetector = true
