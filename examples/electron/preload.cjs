// The preload: the renderer gets a narrow IPC surface, window.a2aIpc, limited to the a2a channels
// (renderer/a2a.js builds the port-like API on it). Sandboxed preloads are CommonJS.
const { contextBridge, ipcRenderer } = require('electron');

const METHODS = ['describe', 'start', 'submit', 'respondInput', 'cancel', 'status'];

contextBridge.exposeInMainWorld('a2aIpc', {
  invoke: (method, ...args) => {
    if (!METHODS.includes(method)) return Promise.reject(new Error(`unknown method ${method}`));
    return ipcRenderer.invoke(`a2a:${method}`, ...args);
  },
  onEvent: (fn) => {
    const listener = (_event, ev) => fn(ev);
    ipcRenderer.on('a2a:event', listener);
    return () => ipcRenderer.off('a2a:event', listener);
  },
});
