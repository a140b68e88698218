// A tiny, safe markdown renderer for agent artifacts: headings, paragraphs, bullet and numbered
// lists, fenced code blocks, and inline **bold**, _italic_, `code` and [links](https://…).
// Every piece of text is HTML-escaped before any markup is added, and links are limited to
// http(s), so agent output can never inject markup or script into the page.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for use in HTML content and attribute values. */
export function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Renders inline markup of one line or paragraph (already split from blocks). */
export function renderInline(text) {
  // Code spans and links are cut out first: code is shown literally, and no emphasis marker
  // inside a URL can reach the href.
  return String(text).split(/(`[^`\n]+`|\[[^\]\n]+\]\(https?:\/\/[^\s)]+\))/).map((piece, i) => {
    if (i % 2 === 0) return emphasis(escapeHTML(piece));
    if (piece.startsWith('`')) return `<code>${escapeHTML(piece.slice(1, -1))}</code>`;
    const [, label, url] = piece.match(/^\[([^\]]+)\]\((.+)\)$/);
    return `<a href="${escapeHTML(url)}" rel="noopener noreferrer" target="_blank">${emphasis(escapeHTML(label))}</a>`;
  }).join('');
}

/** Bold and italic on escaped text (the markers survive escaping unchanged). */
function emphasis(html) {
  return html
    .replace(/\*\*(?=\S)([^*\n]+?)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w*])\*(?=\S)([^*\n]+?)\*(?![\w*])/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_(?=\S)([^_\n]+?)_(?!\w)/g, '$1<em>$2</em>');
}

/** Renders a markdown document to HTML. */
export function renderMarkdown(source) {
  const lines = String(source ?? '').replace(/\r\n?/g, '\n').split('\n');
  const out = [];
  let paragraph = [];
  let list = null; // {tag, items}

  const flushParagraph = () => {
    if (paragraph.length) out.push(`<p>${paragraph.map(renderInline).join('<br>')}</p>`);
    paragraph = [];
  };
  const flushList = () => {
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${renderInline(i)}</li>`).join('')}</${list.tag}>`);
    list = null;
  };
  const flush = () => { flushParagraph(); flushList(); };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = line.match(/^\s*(```+|~~~+)\s*([\w+-]*)\s*$/);
    if (fence) {
      flush();
      const code = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) code.push(lines[i]);
      const lang = fence[2] ? ` data-lang="${escapeHTML(fence[2])}"` : '';
      out.push(`<pre${lang}><code>${escapeHTML(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*?)\s*#*\s*$/);
    if (heading) {
      flush();
      // Artifact headings sit below the page's own: # becomes h3, ## h4, and so on.
      const level = Math.min(heading[1].length + 2, 6);
      out.push(`<h${level}>${renderInline(heading[2])}</h${level}>`);
      continue;
    }
    const bullet = line.match(/^\s*[-*+]\s+(.*)$/);
    const numbered = line.match(/^\s*\d+[.)]\s+(.*)$/);
    if (bullet || numbered) {
      flushParagraph();
      const tag = bullet ? 'ul' : 'ol';
      if (list && list.tag !== tag) flushList();
      list ??= { tag, items: [] };
      list.items.push((bullet ?? numbered)[1]);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (list && /^\s{2,}\S/.test(line)) { // a continuation line of the last item
      list.items[list.items.length - 1] += ' ' + line.trim();
      continue;
    }
    flushList();
    paragraph.push(line.trim());
  }
  flush();
  return out.join('\n');
}
