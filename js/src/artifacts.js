// Rebuilds whole artifacts from the events the module sends (internal/abi's WireEvent): the first
// event of an artifact (or a replacement) carries it whole, later ones only their delta, so a
// stream of n chunks crosses the boundary in O(n) bytes. This is the JS twin of abi.Artifacts.

/** Decodes Go's base64 []byte into bytes. */
export function bytesOf(raw) {
  return typeof raw === 'string' ? Uint8Array.from(atob(raw), (c) => c.charCodeAt(0)) : raw;
}

/** Decodes the base64 raw parts of an artifact for JS callers. */
export function withBytes(artifact) {
  if (!artifact?.parts) return artifact;
  return { ...artifact, parts: artifact.parts.map((p) => (typeof p.raw === 'string' ? { ...p, raw: bytesOf(p.raw) } : p)) };
}

/** Bytes that grow by appends in linear time; the views it returns are never written again. */
class GrowingBytes {
  constructor(start) {
    this.buf = new Uint8Array(Math.max(64, start.byteLength * 2));
    this.buf.set(start);
    this.len = start.byteLength;
  }

  append(more) {
    if (this.len + more.byteLength > this.buf.byteLength) {
      const bigger = new Uint8Array(Math.max(this.buf.byteLength * 2, this.len + more.byteLength));
      bigger.set(this.buf.subarray(0, this.len));
      this.buf = bigger;
    }
    this.buf.set(more, this.len);
    this.len += more.byteLength;
    return this.buf.subarray(0, this.len);
  }
}

const decodePart = (p) => (typeof p.raw === 'string' ? { ...p, raw: bytesOf(p.raw) } : p);

const textOnly = (d) => Boolean(d?.text) && !d.raw && !d.parts?.length;

export class Artifacts {
  #byId = new Map(); // artifact id → {parts as last handed out (never changed afterwards), bytes}
  #text = null; // the call's last event with a text-only delta, as sent: what a `more` repeats

  /**
   * The event a `more` envelope stands for (abi.Artifacts.More): the call's last event with a
   * text-only delta again, appending text instead. rebuild then gives it its whole artifact.
   */
  more(text) {
    const t = this.#text;
    if (!t || !text) throw new Error('a2aport: more text for a call that sent no text delta to continue');
    return { ...t, artifact: { ...t.artifact }, delta: { text } };
  }

  /**
   * Gives back to the outcome what the module left out (abi.Sent): the parts of the last event of
   * each artifact named in reuse, and the content from its pieces (abi.ContentPiece): a text, or
   * an artifact's text less the white space characters head and tail count at its ends (each one
   * UTF-16 unit: Go's white space is all in the BMP), joined by a blank line. Throws when one was
   * never sent.
   */
  outcome(outcome, reuse = [], content = []) {
    const artifacts = (outcome.artifacts ?? []).map(withBytes);
    for (const id of reuse) {
      const view = this.#byId.get(id);
      if (!view) throw new Error(`a2aport: the outcome refers to artifact ${id}, which no event sent`);
      for (const [i, a] of artifacts.entries()) if (a.id === id) artifacts[i] = { ...a, parts: view.parts };
    }
    if (content.length > 0) {
      const texts = content.map(({ text = '', from, head = 0, tail = 0 }) => {
        if (!from) return text;
        const artifact = artifacts.find((a) => a.id === from);
        if (!artifact) throw new Error(`a2aport: the outcome's content refers to artifact ${from}, which the outcome lacks`);
        return trimmed(textOf(artifact), head, tail);
      });
      outcome = { ...outcome, content: texts.length === 1 ? texts[0] : texts.join('\n\n') };
    }
    return { text: answerText(artifacts, outcome.content), ...outcome, artifacts };
  }

  /**
   * Gives the event (freshly parsed, or made by more: ours to change) its whole artifact and
   * decodes the bytes of its delta. Throws when a delta does not fit what came before: the module
   * is not sane. An `event` envelope whose delta is text alone is one the module did not send as
   * `more`: the next `more` repeats it.
   */
  rebuild(ev, fromMore = false) {
    if (!ev.artifact) return ev;
    if (!fromMore && textOnly(ev.delta) && ev.artifact.parts == null && ev.input == null) {
      this.#text = { ...ev, artifact: { ...ev.artifact }, delta: undefined }; // as abi's continuation records it
    }
    const { id } = ev.artifact;
    if (!ev.delta) {
      ev.artifact = withBytes(ev.artifact);
      this.#byId.set(id, { parts: ev.artifact.parts ?? [], bytes: null });
      return ev;
    }
    const view = this.#byId.get(id);
    if (!view) throw new Error(`a2aport: a delta for artifact ${id}, which was never sent whole`);
    const delta = ev.delta;
    if (delta.raw) delta.raw = bytesOf(delta.raw);
    if (delta.parts) delta.parts = delta.parts.map(decodePart);
    const parts = view.parts.slice(); // listeners keep the list they were given
    if (delta.text || delta.raw) {
      const last = parts.at(-1);
      if (delta.text && last?.type === 'text') {
        parts[parts.length - 1] = { ...last, text: last.text + delta.text };
      } else if (delta.raw && last?.type === 'raw') {
        view.bytes ??= new GrowingBytes(last.raw);
        parts[parts.length - 1] = { ...last, raw: view.bytes.append(delta.raw) };
      } else {
        throw new Error(`a2aport: a delta continues the last part of artifact ${id} with other content`);
      }
    }
    if (delta.parts?.length) {
      parts.push(...delta.parts);
      view.bytes = null; // the part it grew is no longer the last
    }
    view.parts = parts;
    ev.artifact.parts = parts;
    return ev;
  }
}

/**
 * The answer's text, as Go's Outcome.Text: each artifact's text parts joined as they streamed,
 * artifacts apart by a blank line; with no text in any artifact, the content.
 */
function answerText(artifacts, content) {
  const texts = [];
  for (const a of artifacts) {
    if ((a.parts ?? []).some((p) => p.type === 'text')) texts.push(textOf(a));
  }
  if (texts.length === 0) return content ?? '';
  return texts.length === 1 ? texts[0] : texts.join('\n\n'); // one streamed answer: its string as it is
}

/** An artifact's text parts joined, as Go's Artifact.Text; one part's text as it is. */
function textOf(artifact) {
  const parts = (artifact.parts ?? []).filter((p) => p.type === 'text');
  return parts.length === 1 ? parts[0].text ?? '' : parts.map((p) => p.text ?? '').join('');
}

// White space as Go's unicode.IsSpace has it: what the module's content trims.
const goSpace = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** text less head characters at its start and tail at its end, each of them white space. */
function trimmed(text, head, tail) {
  const end = text.length - tail;
  if (!(head >= 0 && tail >= 0 && head <= end) || !goSpace.test(text.slice(0, head)) || !goSpace.test(text.slice(end))) {
    throw new Error(`a2aport: the outcome's content trims [${head}, ${tail}] characters of a text that has no such white space`);
  }
  return head === 0 && tail === 0 ? text : text.slice(head, end);
}
