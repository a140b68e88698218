// Imports the package by name, as any app would, so the bundler resolves it from node_modules and
// emits its .wasm as an asset. ?card=<agent card URL>&instruction=<text> choose what to run.
import { createA2ABackendAdapter } from 'a2aport';

const params = new URLSearchParams(location.search);
const out = document.getElementById('out');
const transport = document.getElementById('transport');
const worker = document.getElementById('worker');

function show(state, text) {
  out.textContent = text;
  out.dataset.state = state;
}

async function run() {
  const card = params.get('card');
  if (!card) {
    show('error', 'NO_CARD: add ?card=<agent card URL> to the address');
    return;
  }
  const backend = createA2ABackendAdapter({ agentCardUrl: card });
  try {
    const outcome = await backend.submit({
      id: 'w1', ownerId: 'bundler', instruction: params.get('instruction') ?? 'complete hello',
    });
    transport.textContent = backend.describe().transport ?? '-';
    worker.textContent = String(backend[Symbol.for('a2aport.stats')].worker); // the default in a page
    show('done', outcome.content);
  } catch (err) {
    transport.textContent = backend.describe().transport ?? '-';
    show('error', `${err?.code ?? 'ERROR'}: ${err?.message ?? err}`);
  } finally {
    await backend.close();
  }
}

run().catch((err) => show('error', `ERROR: ${err?.message ?? err}`));
