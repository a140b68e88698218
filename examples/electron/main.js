// Electron main process: one window, the a2aport adapter beside it (see bridge.js). Run with
// `npm install && npx electron .` after `make build.js` at the repository root; A2A_AGENT_CARD_URL
// names the agent (default: the test agent's `go run ./internal/testkit/agent/cmd/a2aport-testagent` card
// printed at start), A2A_TOKEN an optional bearer token.
import { app, BrowserWindow, ipcMain } from 'electron';
import { fileURLToPath } from 'node:url';
import { createA2ABackendAdapter } from 'a2aport';

import { createBridge } from './bridge.js';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

app.whenReady().then(() => {
  const win = new BrowserWindow({
    width: 1000, height: 760,
    webPreferences: { preload: here('./preload.cjs'), contextIsolation: true, sandbox: true, nodeIntegration: false },
  });
  const bridge = createBridge({
    createAdapter: createA2ABackendAdapter,
    options: {
      agentCardUrl: process.env.A2A_AGENT_CARD_URL ?? 'http://127.0.0.1:8080/.well-known/agent-card.json',
      token: process.env.A2A_TOKEN || undefined,
    },
    handle: (channel, fn) => ipcMain.handle(channel, (_event, ...args) => fn(...args)),
    send: (channel, payload) => { if (!win.isDestroyed()) win.webContents.send(channel, payload); },
  });
  win.loadFile(here('./renderer/index.html'));
  app.on('before-quit', () => { bridge.close(); });
});
app.on('window-all-closed', () => app.quit());
