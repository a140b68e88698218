// The modules this entry point may load. A bundler sees each `new URL(..., import.meta.url)` and
// emits the file it names as an asset: an entry that names one module ships one.

export const modules = {
  full: new URL('../a2aport.wasm', import.meta.url),
  legacyFree: new URL('../a2aport-1.0.wasm', import.meta.url),
};
