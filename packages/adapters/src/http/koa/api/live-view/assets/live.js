// Browserdeck live view (http-api.md §14): a plain browser module, no build step.
// The server sends binary frames (a 4-byte big-endian header length, a JSON header, the JPEG),
// `{type:'pages'}` and `{type:'ended'}`; this page sends `select` and, unless read-only, input.

import { attachInput } from './liveInput.js';

const params = new URLSearchParams(location.search);
const readOnly = params.get('readOnly') === 'true';
const fullscreen = params.get('fullscreen') === 'true';

const root = document.querySelector('.live');
const tabs = document.getElementById('tabs');
const tablist = document.getElementById('tablist');
const stage = document.getElementById('stage');
const screen = document.getElementById('screen');
const statusLine = document.getElementById('status');
const context = screen.getContext('2d');

/** The close code of a viewer whose link no longer grants access (http-api.md §14). */
const REVOKED_CLOSE = 1008;
/** The delay before the one reconnect a dropped socket gets. */
const RECONNECT_MS = 1000;

let socket = null;
let currentPage = params.get('page');
let pages = [];
let ended = false;
/** True once a dropped socket was retried and nothing has arrived since. */
let retried = false;
let pendingFrame = null;
let drawing = false;
let hasFrame = false;
let lastStatus = '';

tabs.hidden = fullscreen;
if (!readOnly) {
  screen.tabIndex = 0;
  screen.setAttribute('role', 'application');
  screen.setAttribute('aria-roledescription', 'remote browser');
  screen.setAttribute('aria-label', 'Live view of the browser: mouse and keyboard control it; Tab leaves it');
  screen.classList.add('interactive');
}

function setStatus(text, isError = false) {
  if (text === lastStatus) return;
  lastStatus = text;
  statusLine.textContent = text;
  statusLine.classList.toggle('error', isError);
}

function socketUrl() {
  const query = new URLSearchParams(location.search);
  if (currentPage) query.set('page', currentPage);
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${location.pathname.replace(/\/$/, '')}/ws?${query}`;
}

function connect() {
  setStatus(retried ? 'Connection lost. Reconnecting…' : 'Connecting…');
  const ws = new WebSocket(socketUrl());
  ws.binaryType = 'arraybuffer';
  socket = ws;
  ws.addEventListener('message', (event) => {
    retried = false;
    if (typeof event.data === 'string') onMessage(JSON.parse(event.data));
    else onFrame(event.data);
  });
  ws.addEventListener('close', (event) => {
    if (socket !== ws) return;
    socket = null;
    if (ended) {
      setStatus('The session has ended.');
    } else if (event.code === REVOKED_CLOSE) {
      // The link's access was withdrawn (project archived, API key revoked, signed out): a retry is refused.
      setStatus(
        'The live view was closed: this link no longer grants access. Open the live view again from the session.',
        true,
      );
    } else if (!retried) {
      retried = true;
      setStatus('Connection lost. Reconnecting…', true);
      setTimeout(connect, RECONNECT_MS);
    } else {
      setStatus(
        'The live view is not available: the session may have ended or this link expired. Open the live view again from the session.',
        true,
      );
    }
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function onMessage(message) {
  if (message.type === 'pages') {
    pages = Array.isArray(message.pages) ? message.pages : [];
    currentPage = message.current ?? null;
    renderTabs();
    if (!currentPage) setStatus('The browser has no open tab.');
    else if (hasFrame) setStatus(liveText());
    else setStatus('Waiting for the first frame…');
  } else if (message.type === 'ended') {
    ended = true;
    root.classList.add('ended');
    setStatus('The session has ended.');
  }
}

function liveText() {
  const page = pages.find((p) => p.id === currentPage);
  const name = page ? page.title || page.url : '';
  return `${readOnly ? 'Live, view only' : 'Live'}${name ? `: ${name}` : ''}`;
}

function onFrame(buffer) {
  const headerLength = new DataView(buffer).getUint32(0);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, headerLength)));
  // Frames of the tab just left may still be on the way.
  if (currentPage !== null && header.pageId !== currentPage) return;
  currentPage = header.pageId;
  pendingFrame = new Blob([new Uint8Array(buffer, 4 + headerLength)], { type: 'image/jpeg' });
  if (!drawing) void drawFrames();
}

/** Draws the newest frame; frames that arrive while one is decoded replace each other. */
async function drawFrames() {
  drawing = true;
  while (pendingFrame) {
    const blob = pendingFrame;
    pendingFrame = null;
    try {
      const bitmap = await createImageBitmap(blob);
      if (screen.width !== bitmap.width || screen.height !== bitmap.height) {
        screen.width = bitmap.width;
        screen.height = bitmap.height;
        fitToStage();
      }
      context.drawImage(bitmap, 0, 0);
      bitmap.close();
      if (!hasFrame) {
        hasFrame = true;
        setStatus(liveText());
      }
    } catch {
      // A frame that does not decode is skipped; the next one replaces it.
    }
  }
  drawing = false;
}

/** Scales the frame to fit the stage, keeping its aspect ratio. */
function fitToStage() {
  if (!screen.width || !screen.height) return;
  const styles = getComputedStyle(stage);
  const width =
    stage.clientWidth - Number.parseFloat(styles.paddingLeft) - Number.parseFloat(styles.paddingRight);
  const height =
    stage.clientHeight - Number.parseFloat(styles.paddingTop) - Number.parseFloat(styles.paddingBottom);
  const scale = Math.max(0, Math.min(width / screen.width, height / screen.height));
  screen.style.width = `${Math.floor(screen.width * scale)}px`;
  screen.style.height = `${Math.floor(screen.height * scale)}px`;
}

new ResizeObserver(fitToStage).observe(stage);

function renderTabs() {
  tablist.replaceChildren(
    ...pages.map((page) => {
      const tab = document.createElement('button');
      const selected = page.id === currentPage;
      tab.type = 'button';
      tab.className = 'tab';
      tab.id = `tab-${page.id}`;
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-selected', String(selected));
      tab.setAttribute('aria-controls', 'screen');
      tab.tabIndex = selected ? 0 : -1;
      tab.title = page.url;
      const label = document.createElement('span');
      label.className = 'tab-label';
      label.textContent = page.title || page.url || 'New tab';
      tab.append(label);
      tab.addEventListener('click', () => selectPage(page.id));
      return tab;
    }),
  );
  const selected = pages.find((p) => p.id === currentPage);
  document.title = selected ? `${selected.title || selected.url} · Live view` : 'Live view · Browserdeck';
}

function selectPage(id) {
  if (id === currentPage) return;
  currentPage = id;
  hasFrame = false;
  send({ type: 'select', pageId: id });
  renderTabs();
  setStatus('Switching tab…');
}

tablist.addEventListener('keydown', (event) => {
  if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight' && event.key !== 'Home' && event.key !== 'End')
    return;
  const buttons = [...tablist.querySelectorAll('[role="tab"]')];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0 || buttons.length === 0) return;
  event.preventDefault();
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? buttons.length - 1
        : (at + (event.key === 'ArrowRight' ? 1 : -1) + buttons.length) % buttons.length;
  for (const [i, button] of buttons.entries()) button.tabIndex = i === next ? 0 : -1;
  buttons[next].focus();
});

if (!readOnly) attachInput({ screen, stage, send, hasFrame: () => hasFrame });

connect();
