// Browserdeck live view's input (http-api.md §14): pointer, wheel, keys and paste on the screen,
// sent as viewer messages. Not attached for read-only viewers.

/** Two clicks closer than this (ms, px) count as a double click. */
const MULTI_CLICK_MS = 500;
const MULTI_CLICK_PX = 4;
const MAX_TEXT = 10000;
const BUTTONS = ['left', 'middle', 'right', 'back', 'forward'];

/**
 * Sends the viewer's input on `screen` (a canvas in `stage`) through `send`, once `hasFrame()` says
 * a frame is shown (positions are fractions of it).
 */
export function attachInput({ screen, stage, send, hasFrame }) {
  function modifiers(event) {
    return (
      (event.altKey ? 1 : 0) | (event.ctrlKey ? 2 : 0) | (event.metaKey ? 4 : 0) | (event.shiftKey ? 8 : 0)
    );
  }

  /** Where on the frame the pointer is, as fractions of its width and height. */
  function position(event) {
    const rect = screen.getBoundingClientRect();
    const clamp = (value) => Math.min(1, Math.max(0, value));
    return {
      x: clamp((event.clientX - rect.left) / rect.width),
      y: clamp((event.clientY - rect.top) / rect.height),
    };
  }

  /** The button a move drags with: the first one held, as the DOM's `buttons` mask says. */
  function heldButton(buttons) {
    if (buttons & 1) return 'left';
    if (buttons & 2) return 'right';
    if (buttons & 4) return 'middle';
    return 'none';
  }

  let pendingMove = null;
  let pendingWheel = null;
  let lastDown = { time: 0, x: 0, y: 0, button: '', count: 0 };

  function flushPointer() {
    if (pendingMove) send(pendingMove);
    if (pendingWheel) send(pendingWheel);
    pendingMove = null;
    pendingWheel = null;
  }

  function scheduleFlush() {
    requestAnimationFrame(flushPointer);
  }

  function onPointerDown(event) {
    if (!hasFrame()) return;
    screen.focus();
    screen.setPointerCapture(event.pointerId);
    event.preventDefault();
    const button = BUTTONS[event.button] ?? 'left';
    const near =
      event.timeStamp - lastDown.time < MULTI_CLICK_MS &&
      Math.abs(event.clientX - lastDown.x) <= MULTI_CLICK_PX &&
      Math.abs(event.clientY - lastDown.y) <= MULTI_CLICK_PX &&
      lastDown.button === button;
    const count = near ? Math.min(3, lastDown.count + 1) : 1;
    lastDown = { time: event.timeStamp, x: event.clientX, y: event.clientY, button, count };
    flushPointer();
    send({
      type: 'mouse',
      action: 'down',
      ...position(event),
      button,
      buttons: event.buttons & 31,
      clickCount: count,
      modifiers: modifiers(event),
    });
  }

  function onPointerUp(event) {
    if (!hasFrame()) return;
    event.preventDefault();
    flushPointer();
    send({
      type: 'mouse',
      action: 'up',
      ...position(event),
      button: BUTTONS[event.button] ?? 'left',
      buttons: event.buttons & 31,
      clickCount: lastDown.count || 1,
      modifiers: modifiers(event),
    });
  }

  function onPointerMove(event) {
    if (!hasFrame()) return;
    if (!pendingMove && !pendingWheel) scheduleFlush();
    pendingMove = {
      type: 'mouse',
      action: 'move',
      ...position(event),
      button: heldButton(event.buttons),
      buttons: event.buttons & 31,
      modifiers: modifiers(event),
    };
  }

  function onWheel(event) {
    if (!hasFrame()) return;
    event.preventDefault();
    const unit = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? stage.clientHeight : 1;
    const clamp = (value) => Math.max(-10000, Math.min(10000, value));
    if (!pendingMove && !pendingWheel) scheduleFlush();
    pendingWheel = {
      type: 'wheel',
      ...position(event),
      deltaX: clamp((pendingWheel?.deltaX ?? 0) + event.deltaX * unit),
      deltaY: clamp((pendingWheel?.deltaY ?? 0) + event.deltaY * unit),
      modifiers: modifiers(event),
    };
  }

  /** What a key types, if anything: one character, or a carriage return for Enter. */
  function typedText(event) {
    if (event.ctrlKey || event.metaKey) return '';
    if (event.key === 'Enter') return '\r';
    return [...event.key].length === 1 ? event.key : '';
  }

  function keyMessage(event, action) {
    return {
      type: 'key',
      action,
      key: event.key.slice(0, 32),
      code: event.code.slice(0, 32),
      text: action === 'down' ? typedText(event) : '',
      keyCode: Math.min(255, Math.max(0, event.keyCode || 0)),
      modifiers: modifiers(event),
    };
  }

  /** Tab (without Ctrl, Alt or Meta) is not forwarded: it moves focus out of the view. */
  function leavesView(event) {
    return event.key === 'Tab' && !event.ctrlKey && !event.altKey && !event.metaKey;
  }

  /** Ctrl/Cmd+V is left to the browser, whose paste event sends the text. */
  function isPaste(event) {
    return (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v';
  }

  function onKey(event, action) {
    if (
      event.isComposing ||
      leavesView(event) ||
      isPaste(event) ||
      !event.key ||
      event.key === 'Unidentified'
    )
      return;
    event.preventDefault();
    send(keyMessage(event, action));
  }

  screen.addEventListener('pointerdown', onPointerDown);
  screen.addEventListener('pointerup', onPointerUp);
  screen.addEventListener('pointermove', onPointerMove);
  screen.addEventListener('wheel', onWheel, { passive: false });
  screen.addEventListener('contextmenu', (event) => event.preventDefault());
  screen.addEventListener('keydown', (event) => onKey(event, 'down'));
  screen.addEventListener('keyup', (event) => onKey(event, 'up'));
  screen.addEventListener('paste', (event) => {
    const text = event.clipboardData?.getData('text/plain') ?? '';
    event.preventDefault();
    if (text) send({ type: 'text', text: text.slice(0, MAX_TEXT) });
  });
}
