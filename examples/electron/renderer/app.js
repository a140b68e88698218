// The renderer: one form, one card per Work with its events, its answer, a question box when the
// agent asks, and Cancel. Everything goes through the main process (a2a.js); the page never sees
// the agent's URL credentials.
import { connectBackend } from './a2a.js';

const backend = connectBackend();
const works = new Map(); // work id → {el, answer}
let seq = 0;
const OWNER = 'electron-user';

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function setState(w, state) {
  w.state.textContent = state;
  w.state.className = `state ${state}`;
}

backend.onEvent((ev) => {
  const w = works.get(ev.workId);
  if (!w) return;
  if (ev.type === 'backend.activity' && ev.state) setState(w, ev.state);
  if (ev.type === 'backend.artifact' && ev.artifact) {
    w.text = ev.delta?.text !== undefined ? w.text + ev.delta.text : ev.artifact.parts.map((p) => p.text ?? '').join('');
    w.answer.textContent = w.text;
  }
  if (ev.type === 'backend.input.requested') ask(w, ev);
  w.events.textContent += `${ev.type}${ev.state ? ` ${ev.state}` : ''}${ev.text ? `: ${ev.text}` : ''}\n`;
});

function ask(w, ev) {
  const box = make('form', 'question');
  const input = make('input');
  input.setAttribute('aria-label', `Answer: ${ev.input.prompt}`);
  input.placeholder = ev.input.prompt;
  const button = make('button', '', 'Answer');
  box.append(input, button);
  box.addEventListener('submit', async (e) => {
    e.preventDefault();
    button.disabled = true;
    await backend.respondInput(w.id, ev.input.inputRequestId, { text: input.value }, OWNER);
    box.remove();
  });
  w.el.append(box);
}

async function run(instruction) {
  const id = `w${++seq}-${Date.now()}`;
  const li = make('li', 'work');
  const head = make('h2');
  const title = make('span', '', instruction);
  const state = make('span', 'state', 'submitted');
  const cancel = make('button', 'secondary', 'Cancel');
  head.append(title, state, cancel);
  const events = make('div', 'events');
  const answer = make('div', 'answer');
  li.append(head, answer, events);
  li.dataset.workId = id;
  document.getElementById('works').prepend(li);
  const w = { id, el: li, state, events, answer, text: '' };
  works.set(id, w);
  cancel.addEventListener('click', () => backend.cancel(id, OWNER));
  try {
    const out = await backend.submit({ id, ownerId: OWNER, instruction });
    if (!w.text) answer.textContent = out.content;
    setState(w, 'completed');
  } catch (err) {
    setState(w, 'error');
    answer.append(make('p', 'error', `${err.code}: ${err.message}`));
  } finally {
    cancel.remove();
  }
}

document.getElementById('send').addEventListener('submit', (e) => {
  e.preventDefault();
  const input = document.getElementById('instruction');
  const instruction = input.value.trim();
  input.value = '';
  if (instruction) run(instruction);
});

(async () => {
  const agent = document.getElementById('agent');
  try {
    await backend.start();
    const d = await backend.describe();
    agent.textContent = `${d.agentName ?? d.label} · A2A ${d.protocolVersion} over ${d.transport}${d.capabilities.streaming ? ' · streaming' : ''}`;
    document.body.dataset.ready = 'true';
  } catch (err) {
    agent.textContent = `Not connected: ${err.code}: ${err.message}`;
    document.body.dataset.ready = 'error';
  }
})();
