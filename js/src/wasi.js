// A WASI preview1 shim with exactly the imports a2aport.wasm declares (wasm/exports.txt; a test
// compares the two). The module needs clocks, randomness and stderr; files, sockets and sleeping
// it must never use, so those answer "bad descriptor" or "not supported".

const SUCCESS = 0;
const CLOCK = 0; // a clock subscription of poll_oneoff (eventtype clock)
const EBADF = 8;
const EINVAL = 28;

const decoder = new TextDecoder();

/** Thrown by proc_exit: the instance is dead (a Go panic or fatal error ends there). */
export class WasiExit extends Error {
  constructor(code) {
    super(`the module exited with code ${code}`);
    this.code = code;
  }
}

/** Creates the imports object and the state the host reads back (stderr, sleep requests). */
export function createWasi() {
  let memory;
  const state = { stderr: '', sleeps: 0 };
  const view = () => new DataView(memory.buffer);
  const bytes = () => new Uint8Array(memory.buffer);

  const nowNanos = (id) => {
    if (id === 1) return BigInt(Math.round(performance.now() * 1e6)); // monotonic
    return BigInt(Date.now()) * 1000000n; // realtime
  };

  const noFiles = () => EBADF;

  const imports = {
    args_get: () => SUCCESS,
    args_sizes_get(argc, bufSize) {
      view().setUint32(argc, 0, true);
      view().setUint32(bufSize, 0, true);
      return SUCCESS;
    },
    environ_get: () => SUCCESS,
    environ_sizes_get(count, bufSize) {
      view().setUint32(count, 0, true);
      view().setUint32(bufSize, 0, true);
      return SUCCESS;
    },
    clock_time_get(id, _precision, out) {
      if (id !== 0 && id !== 1) return EINVAL;
      view().setBigUint64(out, nowNanos(id), true);
      return SUCCESS;
    },
    random_get(ptr, len) {
      for (let at = 0; at < len; at += 65536) {
        crypto.getRandomValues(bytes().subarray(ptr + at, ptr + Math.min(len, at + 65536)));
      }
      return SUCCESS;
    },
    fd_write(fd, iovs, iovsLen, written) {
      if (fd !== 1 && fd !== 2) return EBADF;
      const v = view();
      let n = 0;
      for (let i = 0; i < iovsLen; i++) {
        const ptr = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        // Kept for trap reports (Go prints its panics here); bounded.
        if (state.stderr.length < 65536) state.stderr += decoder.decode(bytes().subarray(ptr, ptr + len));
        n += len;
      }
      v.setUint32(written, n, true);
      return SUCCESS;
    },
    fd_fdstat_get(fd, out) {
      if (fd > 2) return EBADF;
      const v = view();
      v.setUint8(out, 2); // character device
      v.setUint16(out + 2, 0, true);
      v.setBigUint64(out + 8, 0n, true);
      v.setBigUint64(out + 16, 0n, true);
      return SUCCESS;
    },
    fd_prestat_get: noFiles, // no preopened directories
    fd_prestat_dir_name: noFiles,
    fd_close: noFiles,
    fd_fdstat_set_flags: noFiles,
    fd_read: noFiles,
    path_filestat_get: noFiles,
    path_open: noFiles,
    // The Go runtime asks to sleep only when a goroutine was counted wrong (wasm/ABI.md): never
    // block the page; answer every subscription at once and count a request to sleep. A clock of
    // zero is no sleep: the runtime polls without waiting when it restarts the world after a GC.
    poll_oneoff(inPtr, outPtr, nsubs, neventsPtr) {
      const v = view();
      for (let i = 0; i < nsubs; i++) {
        const sub = inPtr + i * 48;
        if (v.getUint8(sub + 8) === CLOCK && v.getBigUint64(sub + 24, true) > 0n) {
          state.sleeps++;
          break;
        }
      }
      for (let i = 0; i < nsubs; i++) {
        const sub = inPtr + i * 48;
        const ev = outPtr + i * 32;
        v.setBigUint64(ev, v.getBigUint64(sub, true), true);
        v.setUint16(ev + 8, SUCCESS, true);
        v.setUint8(ev + 10, v.getUint8(sub + 8));
      }
      v.setUint32(neventsPtr, nsubs, true);
      return SUCCESS;
    },
    proc_exit(code) {
      throw new WasiExit(code);
    },
    sched_yield: () => SUCCESS,
  };

  return {
    imports: { wasi_snapshot_preview1: imports },
    state,
    /** Binds the instance's memory once instantiated. */
    bind(instance) {
      memory = instance.exports.memory;
    },
  };
}
