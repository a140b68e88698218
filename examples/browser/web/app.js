// The a2aport demo page. It talks to one A2A agent through the a2aport BackendPort:
// connect (createA2ABackendAdapter + start + describe), submit Works and watch their events,
// answer the agent's questions (respondInput), cancel, and show typed errors by their code.
// The package is imported unbundled from /a2aport/src/index.js; it finds a2aport.wasm itself.

import { renderMarkdown } from './markdown.js';

const PACKAGE_URL = '/a2aport/src/index.js';
const MAX_FILE_BYTES = 10_000_000; // per attachment; the demo agent accepts up to about 20 MB per message

const $ = (selector, root = document) => root.querySelector(selector);
const narrow = window.matchMedia('(max-width: 860px)'); // the layout's single-column breakpoint

const ui = {
  connectForm: $('#connect-form'),
  cardUrl: $('#card-url'),
  token: $('#token'),
  reuse: $('#reuse-context'),
  relay: $('#relay'),
  owner: $('#owner-id'),
  connect: $('#connect'),
  status: $('#connection-status'),
  connectError: $('#connect-error'),
  agent: $('#agent'),
  agentPanel: $('#agent-panel'),
  agentSummary: $('#agent-summary'),
  timeline: $('#timeline'),
  composer: $('#composer'),
  instruction: $('#instruction'),
  files: $('#files'),
  attachments: $('#attachments'),
  isolatedOption: $('#isolated-option'),
  isolated: $('#isolated'),
  send: $('#send'),
  composerError: $('#composer-error'),
  template: $('#work-template'),
};

let pkg = null; // the a2aport module, imported on first connect
let port = null; // the connected BackendPort
let connectedWith = ''; // the settings the port was made with, to notice changes
let pendingFiles = []; // [{part, size}] to send with the next Work
let workCounter = 0;

// ---- connecting -------------------------------------------------------------------------------

/**
 * A WorkStore in localStorage, so that Works still running when the page is reloaded are resumed
 * (with the instruction the page showed, which the page keeps beside the adapter's record).
 */
function localWorkStore(cardUrl) {
  const prefix = `a2aport-demo:work:${cardUrl}:`;
  return {
    get: (id) => JSON.parse(localStorage.getItem(prefix + id) ?? 'null'),
    set: (record) => localStorage.setItem(prefix + record.workId, JSON.stringify({ ...record, instruction: instructions.get(record.workId) })),
    delete: (id) => localStorage.removeItem(prefix + id),
    /** The recorded Works, for resuming after a reload. */
    all: () => Object.keys(localStorage).filter((k) => k.startsWith(prefix)).map((k) => JSON.parse(localStorage.getItem(k))),
  };
}
const instructions = new Map(); // work id -> instruction, for the WorkStore's records

/** A ContextStore in localStorage, so continued conversations survive a reload of the page. */
function localContextStore(cardUrl) {
  const key = (owner) => `a2aport-demo:context:${cardUrl}:${owner}`;
  return {
    get: (owner) => localStorage.getItem(key(owner)),
    set: (owner, contextId) => localStorage.setItem(key(owner), contextId),
    delete: (owner) => localStorage.removeItem(key(owner)),
  };
}

function settings() {
  return JSON.stringify([ui.cardUrl.value.trim(), ui.token.value, ui.reuse.checked, ui.relay.checked]);
}

function setStatus(text, kind = '') {
  ui.status.textContent = text;
  ui.status.dataset.kind = kind;
}

async function connect(event) {
  event.preventDefault();
  hideError(ui.connectError);
  const cardUrl = ui.cardUrl.value.trim();
  if (!ui.owner.value.trim()) ui.owner.value = 'demo-user';
  ui.connect.disabled = true;
  ui.send.disabled = true;
  setStatus('Connecting…', 'busy');
  const previous = port;
  port = null;
  let p = null;
  try {
    if (previous) await previous.close(); // cancels the previous agent's running Works
    pkg ??= await importPackage();
    const options = { agentCardUrl: cardUrl, reuseContext: ui.reuse.checked };
    if (ui.token.value) options.token = ui.token.value;
    if (ui.reuse.checked) options.contextStore = localContextStore(cardUrl);
    const works = localWorkStore(cardUrl);
    options.workStore = works;
    if (ui.relay.checked) options.fetchImpl = relayFetch;
    p = pkg.createA2ABackendAdapter(options);
    port = p;
    connectedWith = settings();
    setStatus('Loading a2aport.wasm and reading the agent card…', 'busy');
    await p.start();
    if (port !== p) return; // a newer connect took over
    showAgent(p.describe());
    setStatus('Connected', 'ok');
    if (narrow.matches) ui.agentPanel.open = false; // make room for the conversation
    ui.connect.textContent = 'Reconnect';
    ui.send.disabled = false;
    resumeWorks(p, works);
  } catch (err) {
    p?.close().catch(() => {}); // nothing to keep from a port that could not start
    if (p && port !== p) return; // a newer connect took over
    port = null;
    ui.agent.hidden = true;
    ui.agentSummary.textContent = '';
    setStatus('Not connected', 'error');
    showError(ui.connectError, err);
  } finally {
    ui.connect.disabled = false;
  }
}

/**
 * A fetch through this server's relay (started with -relay ORIGIN): the page asks its own origin,
 * which forwards to the agent, so an agent that does not allow other origins can still be used.
 */
function relayFetch(input, init) {
  const url = input instanceof Request ? input.url : String(input);
  // The page's own files (the module, read with this fetchImpl too) need no relay, which serves
  // A2A answers only.
  if (new URL(url, location.href).origin === location.origin) return fetch(input, init);
  return fetch(`${location.origin}/relay?to=${encodeURIComponent(url)}`, init);
}

/** Resumes the Works this page had running before it was reloaded (the adapter's WorkStore). */
function resumeWorks(p, works) {
  for (const record of works.all()) {
    if (ui.timeline.querySelector(`.work[data-work-id="${CSS.escape(record.workId)}"]`)) continue; // already shown
    instructions.set(record.workId, record.instruction);
    const view = new WorkView(p, { id: record.workId, ownerId: record.ownerId, instruction: record.instruction ?? '(resumed)' }, []);
    view.log('resumed', '', 'Resumed after the page was reloaded');
    view.run({ resume: true });
  }
}

async function importPackage() {
  try {
    return await import(PACKAGE_URL);
  } catch (err) {
    const e = new Error(`The a2aport package could not be loaded from ${PACKAGE_URL}: ${err.message}`);
    e.code = 'PACKAGE_NOT_LOADED';
    throw e;
  }
}

function showAgent(d) {
  $('#agent-name').textContent = d.agentName || d.label;
  $('#agent-version').textContent = d.agentVersion || '—';
  $('#agent-transport').textContent = d.transport || '—';
  $('#agent-protocol').textContent = d.protocolVersion ? `A2A ${d.protocolVersion}` : '—';
  const caps = $('#agent-capabilities');
  caps.replaceChildren(...Object.entries(d.capabilities)
    .filter(([, v]) => typeof v === 'boolean')
    .map(([name, on]) => {
      const li = document.createElement('li');
      li.className = on ? 'on' : 'off';
      li.textContent = name;
      li.title = `${name}: ${on ? 'yes' : 'no'}`;
      const state = document.createElement('span');
      state.className = 'visually-hidden';
      state.textContent = on ? ' (yes)' : ' (no)';
      li.append(state);
      return li;
    }));
  $('#agent-input-modes').textContent = (d.capabilities.inputModes ?? []).join(', ') || '—';
  $('#agent-output-modes').textContent = (d.capabilities.outputModes ?? []).join(', ') || '—';
  ui.agent.hidden = false;
  ui.agentSummary.textContent = `${d.agentName || d.label} · ${d.transport ?? ''} · A2A ${d.protocolVersion ?? '?'}`;
}

function settingsChanged() {
  ui.isolatedOption.hidden = !ui.reuse.checked;
  if (port && settings() !== connectedWith) setStatus('Settings changed: reconnect to apply', 'warn');
  else if (port) setStatus('Connected', 'ok');
}

// ---- attachments ------------------------------------------------------------------------------

function readAsDataURL(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

async function addFiles(fileList) {
  hideError(ui.composerError);
  for (const file of fileList) {
    if (file.size > MAX_FILE_BYTES) {
      showError(ui.composerError, { code: 'FILE_TOO_LARGE', message: `${file.name} is ${formatBytes(file.size)}; the demo takes files up to ${formatBytes(MAX_FILE_BYTES)}.` });
      continue;
    }
    try {
      const url = await readAsDataURL(file);
      pendingFiles.push({ size: file.size, part: { type: 'file', mime: file.type || 'application/octet-stream', filename: file.name, url } });
    } catch (err) {
      showError(ui.composerError, { code: 'FILE_NOT_READ', message: `${file.name} could not be read: ${err?.message ?? err}` });
    }
  }
  renderPendingFiles();
}

function renderPendingFiles() {
  ui.attachments.replaceChildren(...pendingFiles.map((f, i) => {
    const li = document.createElement('li');
    li.className = 'file-chip';
    if (f.part.mime.startsWith('image/')) {
      const img = document.createElement('img');
      img.src = f.part.url;
      img.alt = '';
      li.append(img);
    }
    const name = document.createElement('span');
    name.textContent = `${f.part.filename} · ${formatBytes(f.size)}`;
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'remove';
    remove.textContent = '×';
    remove.setAttribute('aria-label', `Remove ${f.part.filename}`);
    remove.addEventListener('click', () => {
      pendingFiles.splice(i, 1);
      renderPendingFiles();
    });
    li.append(name, remove);
    return li;
  }));
}

// ---- sending a Work ---------------------------------------------------------------------------

async function send(event) {
  event.preventDefault();
  hideError(ui.composerError);
  const instruction = ui.instruction.value.trim();
  if (!port) return showError(ui.composerError, { code: 'NOT_CONNECTED', message: 'Connect to an agent first.' });
  if (!instruction) return showError(ui.composerError, { code: 'EMPTY_INSTRUCTION', message: 'Write what the agent should do.' });

  const work = { id: `work-${Date.now().toString(36)}-${++workCounter}`, ownerId: ui.owner.value.trim() || 'demo-user', instruction };
  if (pendingFiles.length) work.inputParts = pendingFiles.map((f) => f.part);
  if (ui.reuse.checked && ui.isolated.checked) work.continuity = 'isolated';
  instructions.set(work.id, instruction);
  const view = new WorkView(port, work, pendingFiles);
  ui.instruction.value = '';
  pendingFiles = [];
  renderPendingFiles();
  ui.isolated.checked = false;
  await view.run();
}

const STATE_LABELS = { input_required: 'input required', auth_required: 'authorization required', not_found: 'not found' };

/** One Work in the timeline: its events, question, artifacts and result. */
class WorkView {
  constructor(port, work, files) {
    this.port = port;
    this.work = work;
    this.started = performance.now();
    this.artifacts = new Map(); // artifact id -> {el, urls, updates}
    this.questions = 0;

    $('.empty', ui.timeline)?.remove();
    this.el = ui.template.content.firstElementChild.cloneNode(true);
    this.el.dataset.workId = work.id;
    $('.instruction', this.el).textContent = work.instruction;
    $('.sent-files', this.el).replaceChildren(...files.map((f) => {
      const li = document.createElement('li');
      li.textContent = `${f.part.filename} · ${f.part.mime} · ${formatBytes(f.size)}`;
      return li;
    }));
    this.events = $('.events', this.el);
    this.question = $('.question', this.el);
    this.answerForm = $('.answer', this.el);
    this.cancelButton = $('.cancel', this.el);
    const answerId = `${work.id}-answer`;
    $('label', this.answerForm).htmlFor = answerId;
    $('input', this.answerForm).id = answerId;
    this.answerForm.addEventListener('submit', (e) => this.answer(e));
    this.cancelButton.addEventListener('click', () => this.cancel());
    this.cancelButton.setAttribute('aria-label', `Cancel “${work.instruction}”`);
    const atBottom = nearBottom();
    ui.timeline.append(this.el);
    if (atBottom) this.el.scrollIntoView({ block: 'end' });
  }

  /** Submits the Work, or with resume re-attaches to it after a reload, and shows its result. */
  async run({ resume = false } = {}) {
    try {
      const onEvent = (e) => this.onEvent(e);
      const outcome = resume
        ? await this.port.resume(this.work.id, { ownerId: this.work.ownerId, onEvent })
        : await this.port.submit(this.work, { onEvent });
      this.finish('completed');
      // The final status text of the agent leads the outcome's content.
      const summary = outcome.content.split('\n')[0];
      this.log('outcome', 'completed', summary.length > 160 ? `${summary.slice(0, 159)}…` : summary);
      const outcomeBox = $('.outcome', this.el);
      $('pre', outcomeBox).textContent = `${outcome.content}\n\n(${outcome.artifacts.length} artifact${outcome.artifacts.length === 1 ? '' : 's'})`;
      outcomeBox.hidden = false;
    } catch (err) {
      const state = { WORK_CANCELLED: 'cancelled', A2A_TASK_REJECTED: 'rejected' }[err.code] ?? 'failed';
      this.finish(state);
      showError($('.error', this.el), err);
    }
  }

  onEvent(ev) {
    switch (ev.type) {
      case 'backend.activity':
        if (ev.reconnecting || ev.reconnected) {
          this.log('reconnecting', '', ev.reconnecting ? 'Reconnecting to the task' : 'Reconnected');
          break;
        }
        if (!ev.text && ev.state === this.el.dataset.state) break; // nothing new to show
        if (ev.state) this.setState(ev.state);
        // A question is logged once, by its backend.input.requested event; completion once, with
        // the outcome (whose summary leads with the final status text); a failure's text is the
        // error shown with its code under the log.
        if (ev.state === 'input_required' || ev.state === 'auth_required' || ev.state === 'completed') break;
        this.log('activity', ev.state, ['failed', 'cancelled', 'rejected'].includes(ev.state) ? '' : ev.text);
        break;
      case 'backend.message':
        this.log('message', '', ev.text);
        break;
      case 'backend.artifact': {
        const n = this.renderArtifact(ev.artifact);
        this.log('artifact', '', `${ev.artifact.name || ev.artifact.id}: update ${n}, ${describeSize(ev.artifact)}`);
        break;
      }
      case 'backend.input.requested':
        this.setState('input_required');
        this.ask(ev.input, this.log('question', 'input_required', ev.input?.prompt || 'The agent needs more input.'));
        break;
      case 'backend.input.resolved': {
        this.question.hidden = true;
        const action = ev.input?.action && ev.input.action !== 'accept' ? ` (${ev.input.action})` : '';
        this.log('answer', '', `${this.lastAnswer ?? ''}${action}`);
        break;
      }
    }
  }

  setState(state) {
    this.el.dataset.state = state;
    const badge = $('.work-head .badge', this.el);
    badge.dataset.state = state;
    badge.textContent = STATE_LABELS[state] ?? state;
  }

  log(kind, state, text) {
    const atBottom = nearBottom();
    const li = document.createElement('li');
    li.className = `event event-${kind}`;
    const time = document.createElement('span');
    time.className = 'time';
    time.textContent = `+${((performance.now() - this.started) / 1000).toFixed(1)} s`;
    li.append(time);
    const label = document.createElement('span');
    label.className = 'badge small';
    label.dataset.state = state || kind;
    label.textContent = state ? (STATE_LABELS[state] ?? state) : kind;
    li.append(label);
    if (text) {
      const body = document.createElement('span');
      body.className = 'text';
      body.textContent = text;
      li.append(body);
    }
    this.events.append(li);
    if (atBottom) li.scrollIntoView({ block: 'nearest' });
    return li;
  }

  /** Opens the answer box under the question's line in the log (which the field refers to). */
  ask(input, line) {
    this.inputRequestId = input.inputRequestId;
    const text = $('.text', line);
    text.id = `${this.work.id}-question-${++this.questions}`;
    const field = $('input', this.answerForm);
    field.setAttribute('aria-describedby', text.id);
    field.value = '';
    field.disabled = false;
    $('button', this.answerForm).disabled = false;
    this.question.hidden = false;
    field.focus({ preventScroll: true });
    this.question.scrollIntoView({ block: 'nearest' });
  }

  async answer(event) {
    event.preventDefault();
    const field = $('input', this.answerForm);
    const text = field.value.trim();
    if (!text) return;
    field.disabled = true;
    $('button', this.answerForm).disabled = true;
    this.lastAnswer = text;
    try {
      await this.port.respondInput(this.work.id, this.inputRequestId, { text }, { ownerId: this.work.ownerId });
    } catch (err) {
      field.disabled = false;
      $('button', this.answerForm).disabled = false;
      showError($('.error', this.el), err);
    }
  }

  async cancel() {
    this.cancelButton.disabled = true;
    this.cancelButton.textContent = 'Cancelling…';
    try {
      await this.port.cancel(this.work.id, { ownerId: this.work.ownerId });
    } catch (err) {
      this.cancelButton.disabled = false;
      this.cancelButton.textContent = 'Cancel';
      showError($('.error', this.el), err);
    }
  }

  finish(state) {
    this.setState(state);
    this.question.hidden = true;
    $('.work-actions', this.el).hidden = true;
  }

  /** Renders (or re-renders) an artifact in place; returns how many updates it has had. */
  renderArtifact(artifact) {
    let entry = this.artifacts.get(artifact.id);
    if (!entry) {
      const el = document.createElement('article');
      el.className = 'artifact';
      entry = { el, urls: [], updates: 0 };
      this.artifacts.set(artifact.id, entry);
      $('.artifacts', this.el).append(el);
    }
    for (const url of entry.urls) URL.revokeObjectURL(url);
    entry.urls = [];
    entry.updates++;
    entry.el.dataset.updates = String(entry.updates);
    entry.el.dataset.artifactId = artifact.id;
    entry.el.replaceChildren(...artifactNodes(artifact, entry.urls));
    return entry.updates;
  }
}

// ---- rendering artifacts ----------------------------------------------------------------------

function artifactNodes(artifact, urls) {
  const head = document.createElement('header');
  const title = document.createElement('h3');
  title.textContent = artifact.name || artifact.id;
  head.append(title);
  if (artifact.description) {
    const desc = document.createElement('p');
    desc.textContent = artifact.description;
    head.append(desc);
  }
  const nodes = [head];
  let text = null; // consecutive text parts render as one markdown document
  const flushText = () => {
    if (text === null) return;
    const body = document.createElement('div');
    body.className = 'markdown';
    body.innerHTML = renderMarkdown(text); // renderMarkdown escapes every piece of text
    nodes.push(body);
    text = null;
  };
  for (const part of artifact.parts ?? []) {
    if (part.type === 'text') {
      text = (text ?? '') + (part.text ?? '');
      continue;
    }
    flushText();
    nodes.push(partNode(part, artifact, urls));
  }
  flushText();
  return nodes;
}

// rasterImageTypes are the images shown inline: they cannot carry script, whatever opens them.
const rasterImageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

function partNode(part, artifact, urls) {
  const box = document.createElement('div');
  box.className = `part ${part.type}`;
  const mime = part.mediaType || 'application/octet-stream';
  const name = part.filename || artifact.name || artifact.id;
  if (part.type === 'raw') {
    const bytes = part.raw instanceof Uint8Array ? part.raw : new Uint8Array(0);
    // A blob: URL is of this page's origin: opened as a page, HTML or SVG from the agent would run
    // with this page's storage. So the download is always octet-stream (saved, never shown), and
    // only raster images get a blob of their own type, for the <img>.
    const blobURL = (type) => {
      const url = URL.createObjectURL(new Blob([bytes], { type }));
      urls.push(url);
      return url;
    };
    if (rasterImageTypes.has(mime.toLowerCase())) box.append(image(blobURL(mime), name));
    else if (mime.startsWith('text/') && bytes.length <= 64_000) box.append(preview(new TextDecoder().decode(bytes)));
    box.append(download(blobURL('application/octet-stream'), name, `${mime}, ${formatBytes(bytes.length)}`));
  } else if (part.type === 'url') {
    const safe = /^(https?|data|blob):/i.test(part.url ?? '');
    if (safe && mime.startsWith('image/')) box.append(image(part.url, name));
    if (/^https?:/i.test(part.url ?? '')) {
      const a = document.createElement('a');
      a.href = part.url;
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      a.textContent = `${name} (${mime})`;
      box.append(a);
    } else {
      box.append(preview(part.url ?? ''));
    }
  } else if (part.type === 'data') {
    box.append(preview(JSON.stringify(part.data, null, 2)));
  }
  return box;
}

function image(src, name) {
  const img = document.createElement('img');
  img.src = src;
  img.alt = name;
  img.loading = 'lazy';
  return img;
}

function preview(text) {
  const pre = document.createElement('pre');
  const lines = text.split('\n');
  pre.textContent = lines.length > 12 ? `${lines.slice(0, 12).join('\n')}\n…` : text;
  return pre;
}

function download(url, name, detail) {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.className = 'download';
  a.textContent = `Download ${name}`;
  const small = document.createElement('span');
  small.className = 'hint';
  small.textContent = ` (${detail})`;
  a.append(small);
  return a;
}

// ---- helpers ----------------------------------------------------------------------------------

function describeSize(artifact) {
  let chars = 0;
  let bytes = 0;
  for (const p of artifact.parts ?? []) {
    if (p.type === 'text') chars += (p.text ?? '').length;
    if (p.type === 'raw') bytes += p.raw?.length ?? 0;
  }
  const parts = [];
  if (chars) parts.push(`${chars.toLocaleString('en')} characters`);
  if (bytes) parts.push(formatBytes(bytes));
  return parts.join(', ') || `${artifact.parts?.length ?? 0} parts`;
}

function formatBytes(n) {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} KB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

function nearBottom() {
  const t = ui.timeline;
  return t.scrollHeight - t.scrollTop - t.clientHeight < 80;
}

/** Shows an error with its code (A2APortError.code, or the error's name) and HTTP status. */
function showError(box, err) {
  const code = document.createElement('code');
  code.className = 'code';
  code.textContent = err?.code ?? err?.name ?? 'ERROR';
  const message = document.createElement('span');
  message.className = 'message';
  message.textContent = String(err?.message ?? err).replace(/^a2aport: /, '');
  box.replaceChildren(code, ' ', message);
  if (err?.status) {
    const status = document.createElement('span');
    status.className = 'hint';
    status.textContent = ` (HTTP ${err.status})`;
    box.append(status);
  }
  box.hidden = false;
}

function hideError(box) {
  box.hidden = true;
  box.replaceChildren();
}

// ---- wiring -----------------------------------------------------------------------------------

ui.cardUrl.value = `${location.origin}/.well-known/agent-card.json`;
for (const button of document.querySelectorAll('[data-preset]')) {
  button.addEventListener('click', () => {
    ui.cardUrl.value = new URL(button.dataset.preset, location.origin).href;
    settingsChanged();
    ui.cardUrl.focus();
  });
}
for (const button of document.querySelectorAll('[data-example]')) {
  button.addEventListener('click', () => {
    ui.instruction.value = button.dataset.example;
    ui.instruction.focus();
  });
}
ui.connectForm.addEventListener('submit', connect);
for (const field of [ui.cardUrl, ui.token, ui.reuse, ui.relay]) field.addEventListener('input', settingsChanged);
ui.composer.addEventListener('submit', send);
ui.instruction.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    ui.composer.requestSubmit();
  }
});
ui.files.addEventListener('change', async () => {
  await addFiles(ui.files.files);
  ui.files.value = '';
});
ui.composer.addEventListener('dragover', (e) => e.preventDefault());
ui.composer.addEventListener('drop', (e) => {
  e.preventDefault();
  if (e.dataTransfer?.files.length) addFiles(e.dataTransfer.files);
});
$('#clear').addEventListener('click', () => {
  for (const el of ui.timeline.querySelectorAll('.work')) {
    if (!['submitted', 'working', 'input_required', 'auth_required'].includes(el.dataset.state)) el.remove();
  }
  if (!ui.timeline.children.length) {
    const empty = document.createElement('li');
    empty.className = 'empty';
    empty.textContent = 'Send the agent something to do.';
    ui.timeline.append(empty);
  }
});
// The agent panel folds away on narrow windows only; on wide ones it is the left column.
$('summary', ui.agentPanel).addEventListener('click', (e) => { if (!narrow.matches) e.preventDefault(); });
narrow.addEventListener('change', () => { if (!narrow.matches) ui.agentPanel.open = true; });
// Leaving the page does not close the adapter: Works still running at the agent go on, and the
// next visit resumes them from the WorkStore.
settingsChanged();
// The page comes with its own agent: connect to it at once, as a newcomer would expect.
ui.connectForm.requestSubmit();
