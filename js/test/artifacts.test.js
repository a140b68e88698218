// The host's side of an outcome that refers to text it already has (abi.Sent.Outcome): the
// content is the artifact's text less the white space the module counted, and a count that would
// cut more than white space is the module not being sane, not a shorter answer. The Go host's
// twin is internal/abi's TestSentOutcomeTrimmedContent and TestArtifactsRefuseABadTrim; the
// matrix's 'padded' scenario runs the same through the real module.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Artifacts } from '../src/artifacts.js';

/** A host that has seen one artifact "a" whose only part is text. */
function hostWith(text) {
  const host = new Artifacts();
  host.rebuild({ type: 'backend.artifact', artifact: { id: 'a', parts: [{ type: 'text', text }] } });
  return host;
}

const outcome = () => ({ artifacts: [{ id: 'a' }] });

test('the content is the text less the counted white space, of every kind Go trims', () => {
  for (const [text, trim, want] of [
    ['the answer\n', [0, 1], 'the answer'],
    ['\n\t answer\u3000 \u0085', [3, 3], 'answer'],
    ['\u00a0é ü\u2029', [1, 1], 'é ü'],
    ['no space', undefined, 'no space'],
  ]) {
    const out = hostWith(text).outcome(outcome(), ['a'], 'a', trim);
    assert.equal(out.content, want, JSON.stringify(text));
    assert.equal(out.artifacts[0].parts[0].text, text, 'the artifact keeps its white space');
  }
});

test('a trim of more than white space, or past the text, is refused', () => {
  for (const trim of [[1, 0], [0, 2], [0, 9], [-1, 0], [7, 1]]) {
    assert.throws(() => hostWith('answer\n').outcome(outcome(), ['a'], 'a', trim), /trims/, JSON.stringify(trim));
  }
});
