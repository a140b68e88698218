// The page's markdown renderer: the constructs the demo agent writes, and no way for agent text
// to inject markup.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHTML, renderInline, renderMarkdown } from '../web/markdown.js';

test('headings sit below the page’s own, lists and paragraphs', () => {
  assert.equal(renderMarkdown('# Brief: Tides\n\n_Requested: “tides”._\n\n## Key points\n\n- **Scope**: wide\n- `code`\n\n1. one\n2. two\n\nLast line\ncontinued'),
    ['<h3>Brief: Tides</h3>', '<p><em>Requested: “tides”.</em></p>', '<h4>Key points</h4>',
      '<ul><li><strong>Scope</strong>: wide</li><li><code>code</code></li></ul>', '<ol><li>one</li><li>two</li></ol>',
      '<p>Last line<br>continued</p>'].join('\n'));
});

test('fenced code is shown literally', () => {
  assert.equal(renderMarkdown('```sh\nmake demo && echo "**not bold**" <b>\n```'),
    '<pre data-lang="sh"><code>make demo &amp;&amp; echo &quot;**not bold**&quot; &lt;b&gt;</code></pre>');
  assert.equal(renderMarkdown('```\nunterminated'), '<pre><code>unterminated</code></pre>');
});

test('agent text cannot inject markup', () => {
  for (const evil of ['<img src=x onerror=alert(1)>', '<script>alert(1)</script>', '"><svg onload=alert(1)>',
    '[x](javascript:alert(1))', '[x](https://e.com/"onmouseover="alert(1))', '**<b>**', '`</code><script>`']) {
    const html = renderMarkdown(evil);
    assert.doesNotMatch(html, /<(img|script|svg|b)[\s>]/i, `${evil} -> ${html}`);
    assert.doesNotMatch(html, /href="javascript:/i, `${evil} -> ${html}`);
    assert.doesNotMatch(html, /"on\w+=/i, `${evil} -> ${html}`);
  }
  assert.equal(escapeHTML(`<&>"'`), '&lt;&amp;&gt;&quot;&#39;');
});

test('links are http(s) only, and emphasis never reaches a URL', () => {
  assert.equal(renderInline('see [the spec](https://a2a-protocol.org/_latest_/?a=1&b=2)'),
    'see <a href="https://a2a-protocol.org/_latest_/?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">the spec</a>');
  assert.equal(renderInline('[x](ftp://host/file)'), '[x](ftp://host/file)');
});

test('snake_case and lone markers stay as they are', () => {
  assert.equal(renderInline('snake_case_name, 2 * 3 * 4 and a*b*c'), 'snake_case_name, 2 * 3 * 4 and a*b*c');
  assert.equal(renderInline('*one* and _two_'), '<em>one</em> and <em>two</em>');
});
