package main

import (
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/a2aport/a2aport"
)

// A binary artifact is saved under the name the agent gave it, made safe the way browsers make a
// download's name safe: no folder in it, no control or bidirectional character (an agent's
// "invoice\u202efdp.exe" shows as "invoiceexe.pdf"), no leading dot (.bashrc), nothing a file
// system refuses, at most maxNameBytes. The file is created new (O_EXCL, and O_NOFOLLOW where the
// system has it): a name that exists, or a symbolic link planted in the folder, even a dangling
// one, is never written through; the next free name is taken instead.

// maxNameBytes is the most a saved file's name may take (most file systems allow 255).
const maxNameBytes = 200

// safeName is name as a file in the output folder: its base, with what could harm replaced, or
// fallback when nothing is left.
func safeName(name, fallback string) string {
	name = filepath.Base(strings.ReplaceAll(name, `\`, "/"))
	name = strings.Map(func(c rune) rune {
		switch {
		case unsafeRune(c, false), c == utf8.RuneError:
			return -1 // dropped: a control or bidirectional character has no place in a name
		case strings.ContainsRune(`/:*?"<>|`, c):
			return '_'
		}
		return c
	}, name)
	name = strings.TrimRight(name, ". ")
	if strings.HasPrefix(name, ".") {
		name = "_" + name[1:] // no hidden file, no .bashrc
	}
	if name == "" || name == "_" {
		name = fallback
	}
	if stem, _, _ := strings.Cut(name, "."); reservedOnWindows[strings.ToUpper(strings.TrimSpace(stem))] {
		name = "_" + name // Windows reserves the name whatever its extensions (NUL.tar.gz too)
	}
	return shorten(name, maxNameBytes)
}

// reservedOnWindows are device names no file may take there.
var reservedOnWindows = func() map[string]bool {
	names := map[string]bool{"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true}
	for i := 1; i <= 9; i++ {
		names[fmt.Sprint("COM", i)], names[fmt.Sprint("LPT", i)] = true, true
	}
	return names
}()

// shorten cuts name to at most max bytes, on a rune boundary, keeping a short extension.
func shorten(name string, max int) string {
	if len(name) <= max {
		return name
	}
	ext := filepath.Ext(name)
	if len(ext) > 16 {
		ext = ""
	}
	stem := strings.TrimSuffix(name, ext)
	stem = stem[:max-len(ext)]
	for !utf8.ValidString(stem) {
		stem = stem[:len(stem)-1]
	}
	return stem + ext
}

// saveFile writes data as a new file in dir under name, or the first free variant of it
// (name-2.ext, ...), and returns its path.
func saveFile(dir, name string, data []byte) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for n := 1; n < 1000; n++ {
		candidate := name
		if n > 1 {
			candidate = shorten(fmt.Sprintf("%s-%d", stem, n), maxNameBytes-len(ext)) + ext
		}
		path := filepath.Join(dir, candidate)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, 0o644)
		if errors.Is(err, fs.ErrExist) || isLoop(err) {
			continue // taken, or a link: never written through
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(path) // a partial file is no save
			return "", werr
		}
		return path, nil
	}
	return "", fmt.Errorf("no free name for %s in %s", name, dir)
}

// fallbackName names a part that has no file name: the artifact's name and the part's place,
// with the extension of its media type.
func fallbackName(a a2aport.Artifact, i int, mediaType string) string {
	ext := ""
	if exts, _ := mime.ExtensionsByType(mediaType); len(exts) > 0 {
		ext = exts[0]
	}
	return fmt.Sprintf("%s-%d%s", orDefault(a.Name, a.ID), i+1, ext)
}
