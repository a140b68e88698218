// The host's side of an outcome whose content refers to text it already has (abi.ContentPiece):
// an artifact's text less the white space the module counted, pieces a blank line apart, and a
// count that would cut more than white space is the module not being sane, not a shorter answer.
// The Go host's twins are internal/abi's TestContentPieces and TestArtifactsRefuseABadTrim; the
// matrix's 'padded' and 'complete' scenarios run the same through the real module.
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
    const [head, tail] = trim ?? [];
    const out = hostWith(text).outcome(outcome(), ['a'], [{ from: 'a', head, tail }]);
    assert.equal(out.content, want, JSON.stringify(text));
    assert.equal(out.artifacts[0].parts[0].text, text, 'the artifact keeps its white space');
  }
});

test('pieces are joined by a blank line, texts and artifacts\' texts alike', () => {
  const out = hostWith(' answer ').outcome(outcome(), ['a'], [{ text: 'done' }, { from: 'a', head: 1, tail: 1 }]);
  assert.equal(out.content, 'done\n\nanswer');
});

test('a trim of more than white space, or past the text, or of an artifact the outcome lacks, is refused', () => {
  for (const [head, tail, from] of [[1, 0], [0, 2], [0, 9], [-1, 0], [7, 1], [0, 0, 'z']]) {
    assert.throws(() => hostWith('answer\n').outcome(outcome(), ['a'], [{ from: from ?? 'a', head, tail }]), /trims|lacks/, JSON.stringify([head, tail, from]));
  }
});
