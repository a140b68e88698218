// The module of the 'a2aport/1.0' entry: the A2A 1.0-only one (the full one, 4.6 MB brotli more,
// is not named, so a bundler leaves it out).

export const modules = {
  legacyFree: new URL('../a2aport-1.0.wasm', import.meta.url),
};
