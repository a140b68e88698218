// The frame of the module boundary (wasm/ABI.md): u32 LE header length, JSON header, raw payload.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Collects envelopes and the bytes they reference, then encodes one frame. */
export class FrameWriter {
  constructor() {
    this.envelopes = [];
    this.chunks = [];
    this.size = 0;
  }

  /** Appends bytes to the payload and returns their span. */
  bytes(data) {
    const span = { o: this.size, n: data.byteLength };
    this.chunks.push(data);
    this.size += data.byteLength;
    return span;
  }

  add(envelope) {
    this.envelopes.push(envelope);
  }

  /**
   * Encodes the frame; `now` is the host clock in Unix nanoseconds, `snapshot` (optional) asks
   * for the module's status, and description, once the batch has run (wasm/ABI.md).
   */
  encode(now, snapshot) {
    const header = encoder.encode(JSON.stringify({ now, e: this.envelopes, snapshot }));
    const frame = new Uint8Array(4 + header.byteLength + this.size);
    new DataView(frame.buffer).setUint32(0, header.byteLength, true);
    frame.set(header, 4);
    let at = 4 + header.byteLength;
    for (const chunk of this.chunks) {
      frame.set(chunk, at);
      at += chunk.byteLength;
    }
    return frame;
  }
}

/** Decodes a frame into its envelopes and payload (a view into `frame`). */
export function readFrame(frame) {
  if (frame.byteLength < 4) throw new Error('a2aport: frame shorter than its header');
  const n = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0, true);
  if (n > frame.byteLength - 4) throw new Error('a2aport: frame shorter than its header');
  const batch = JSON.parse(decoder.decode(frame.subarray(4, 4 + n)));
  return { envelopes: batch.e ?? [], payload: frame.subarray(4 + n) };
}

/** The bytes a span references in a payload. */
export function slice(payload, span) {
  if (!span) return new Uint8Array(0);
  if (span.o + span.n > payload.byteLength) throw new Error('a2aport: span outside the payload');
  return payload.subarray(span.o, span.o + span.n);
}
