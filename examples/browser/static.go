package main

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strings"
)

// web holds the page: index.html, app.js, markdown.js, style.css.
//
//go:embed web
var web embed.FS

// pagePolicy keeps the page to its own scripts: no inline script, no eval; WebAssembly may be
// compiled ('wasm-unsafe-eval'); the agent may be anywhere (connect-src); images may come from
// the agent's artifacts (data:, blob:, http(s) links).
const pagePolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
	"img-src 'self' data: blob: http: https:; connect-src 'self' http: https: data: blob:; " +
	"object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// pageHandler serves the embedded page.
func pageHandler() http.Handler {
	files, err := fs.Sub(web, "web")
	if err != nil {
		panic(err) // the embedded tree always has web/
	}
	static := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", pagePolicy)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-cache")
		static.ServeHTTP(w, r)
	})
}

// moduleName is the package's one module, by the name it asks for.
const moduleName = "a2aport.wasm"

// packageHandler serves the JS package as the page imports it, below /a2aport/:
// /a2aport/src/*.js from jsDir/src and /a2aport/a2aport.wasm from wasmDir, so that the
// loader's new URL('../a2aport.wasm', import.meta.url) finds the module. Nothing else of either
// directory is served, and there are no directory listings.
func packageHandler(jsDir, wasmDir string) http.Handler {
	src := os.DirFS(path.Join(jsDir, "src"))
	modules := os.DirFS(wasmDir)
	return http.StripPrefix("/a2aport/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Path
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		switch {
		case name == moduleName:
			if !exists(modules, name) {
				http.Error(w, fmt.Sprintf("%s is not in %s: run `make build.wasm`, or pass -wasm-dir", name, wasmDir), http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Type", "application/wasm")
			http.ServeFileFS(w, r, modules, name)
		case strings.HasPrefix(name, "src/") && strings.HasSuffix(name, ".js") && fs.ValidPath(name):
			file := strings.TrimPrefix(name, "src/")
			if !exists(src, file) {
				http.Error(w, fmt.Sprintf("%s is not in %s/src", file, jsDir), http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			http.ServeFileFS(w, r, src, file)
		default:
			http.NotFound(w, r)
		}
	}))
}

// exists reports whether name is a regular file of fsys.
func exists(fsys fs.FS, name string) bool {
	info, err := fs.Stat(fsys, name)
	return err == nil && info.Mode().IsRegular()
}

// checkPackage says what the page will miss: the package sources or the module.
func checkPackage(jsDir, wasmDir string) error {
	var problems []error
	if !exists(os.DirFS(jsDir), "src/index.js") {
		problems = append(problems, fmt.Errorf("no %s: the page needs the a2aport JS package (-js-dir)", path.Join(jsDir, "src", "index.js")))
	}
	if !exists(os.DirFS(wasmDir), moduleName) {
		problems = append(problems, fmt.Errorf("no %s: run `make build.wasm`, or pass -wasm-dir", path.Join(wasmDir, moduleName)))
	}
	return errors.Join(problems...)
}
