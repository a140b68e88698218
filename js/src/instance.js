// One module instance on the thread that runs it: the one place that touches its memory.

import { createWasi } from './wasi.js';

/** Instantiates a compiled module and runs its reactor start function. */
export async function instantiate(module) {
  const wasi = createWasi();
  const instance = await WebAssembly.instantiate(module, wasi.imports);
  wasi.bind(instance);
  instance.exports._initialize();
  return new Instance(instance.exports, wasi);
}

export class Instance {
  constructor(exports, wasi) {
    this.exports = exports;
    this.wasi = wasi;
  }

  /** One export call: copy the frame in, run to quiescence, copy the effect frame out at once. */
  exchange(frame) {
    const { a2aport_alloc: alloc, a2aport_call: call, memory } = this.exports;
    const ptr = alloc(frame.byteLength);
    new Uint8Array(memory.buffer, ptr, frame.byteLength).set(frame);
    const packed = BigInt.asUintN(64, call(ptr, frame.byteLength)); // an i64 arrives signed
    if (packed === 0n) throw new Error('the module rejected the input frame');
    const outPtr = Number(packed >> 32n);
    const outLen = Number(packed & 0xffffffffn);
    if (outPtr + outLen > memory.buffer.byteLength) throw new Error(`the module returned a frame outside its memory (${outPtr}+${outLen})`);
    return new Uint8Array(memory.buffer.slice(outPtr, outPtr + outLen)); // the module reuses it
  }

  /** What the module wrote to stderr (a Go panic's message), for trap reports. */
  get stderr() {
    return this.wasi.state.stderr;
  }

  /** Counters for tests: the Go runtime's requests to sleep, the linear memory's size. */
  get counters() {
    return { sleeps: this.wasi.state.sleeps, memoryBytes: this.exports.memory.buffer.byteLength };
  }

  /** Nothing to release: the instance goes with its last reference. */
  release() {}
}
