/** What a viewer may send (http-api.md §14): a tab switch, and unless read-only, input. */
export const VIEWER_MESSAGE_TYPES = ['select', 'mouse', 'wheel', 'key', 'text'] as const;
/** One of `VIEWER_MESSAGE_TYPES`. */
export type ViewerMessageType = (typeof VIEWER_MESSAGE_TYPES)[number];

/** A mouse message's `action`: a button pressed or released, or the pointer moved. */
export const MOUSE_ACTIONS = ['down', 'up', 'move'] as const;
/** One of `MOUSE_ACTIONS`. */
export type MouseAction = (typeof MOUSE_ACTIONS)[number];

/** CDP's `Input.MouseButton`. */
export const MOUSE_BUTTONS = ['none', 'left', 'middle', 'right', 'back', 'forward'] as const;
/** One of `MOUSE_BUTTONS`. */
export type MouseButton = (typeof MOUSE_BUTTONS)[number];

/** A key message's `action`: CDP's key event types as the page names them. */
export const KEY_ACTIONS = ['down', 'up', 'char'] as const;
/** One of `KEY_ACTIONS`. */
export type KeyAction = (typeof KEY_ACTIONS)[number];

/** The largest message a viewer may send; a larger one closes its socket (1009). */
export const MAX_VIEWER_MESSAGE_BYTES = 64 * 1024;
/** The longest text a `text` message (paste, IME) may insert. */
export const MAX_INSERTED_TEXT = 10_000;
/** The largest wheel delta in one message, in CSS pixels. */
export const MAX_WHEEL_DELTA = 10_000;

/**
 * A position on the frame the viewer shows, as fractions of its width and height (0..1): the page
 * needs to know nothing but where on the image the pointer is.
 */
export interface FramePosition {
  readonly x: number;
  readonly y: number;
}

/** A validated viewer message. Modifiers are CDP's bit mask: Alt 1, Ctrl 2, Meta 4, Shift 8. */
export type ViewerMessage =
  | { readonly type: 'select'; readonly pageId: string }
  | (FramePosition & {
      readonly type: 'mouse';
      readonly action: MouseAction;
      readonly button: MouseButton;
      /** Buttons held, as the DOM's `MouseEvent.buttons` bit mask. */
      readonly buttons: number;
      readonly clickCount: number;
      readonly modifiers: number;
    })
  | (FramePosition & {
      readonly type: 'wheel';
      readonly deltaX: number;
      readonly deltaY: number;
      readonly modifiers: number;
    })
  | {
      readonly type: 'key';
      readonly action: KeyAction;
      /** The DOM `KeyboardEvent.key`, e.g. `a`, `Enter`. */
      readonly key: string;
      /** The DOM `KeyboardEvent.code`, e.g. `KeyA`. */
      readonly code: string;
      /** What the key types; empty for keys that type nothing. */
      readonly text: string;
      /** The Windows virtual key code (the DOM's legacy `keyCode`). */
      readonly keyCode: number;
      readonly modifiers: number;
    }
  | { readonly type: 'text'; readonly text: string };

type Fields = Record<string, unknown>;

const isIn = <T extends string>(list: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (list as readonly string[]).includes(value);
const intIn = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
const fraction = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
const delta = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_WHEEL_DELTA;
const shortString = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length <= max;
/** True when `fields` names nothing outside `allowed`. */
const only = (fields: Fields, allowed: readonly string[]): boolean =>
  Object.keys(fields).every((key) => allowed.includes(key));

/**
 * Reads one viewer message: strict JSON, an object of a known `type` with exactly the fields that
 * type allows, each within its bounds (optional ones default to 0 or ''). Null for anything else:
 * the hub closes such a viewer (1008), since its own page never sends one.
 */
export function parseViewerMessage(raw: string): ViewerMessage | null {
  if (raw.length > MAX_VIEWER_MESSAGE_BYTES) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const m = parsed as Fields;
  const modifiers = m.modifiers ?? 0;
  if (!intIn(modifiers, 0, 15)) return null;
  switch (m.type) {
    case 'select':
      if (!only(m, ['type', 'pageId'])) return null;
      return typeof m.pageId === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(m.pageId)
        ? { type: 'select', pageId: m.pageId }
        : null;
    case 'mouse': {
      if (!only(m, ['type', 'action', 'x', 'y', 'button', 'buttons', 'clickCount', 'modifiers'])) return null;
      const button = m.button ?? 'none';
      const buttons = m.buttons ?? 0;
      const clickCount = m.clickCount ?? 0;
      if (!isIn(MOUSE_ACTIONS, m.action) || !fraction(m.x) || !fraction(m.y)) return null;
      if (!isIn(MOUSE_BUTTONS, button) || !intIn(buttons, 0, 31) || !intIn(clickCount, 0, 3)) return null;
      return { type: 'mouse', action: m.action, x: m.x, y: m.y, button, buttons, clickCount, modifiers };
    }
    case 'wheel':
      if (!only(m, ['type', 'x', 'y', 'deltaX', 'deltaY', 'modifiers'])) return null;
      if (!fraction(m.x) || !fraction(m.y) || !delta(m.deltaX) || !delta(m.deltaY)) return null;
      return { type: 'wheel', x: m.x, y: m.y, deltaX: m.deltaX, deltaY: m.deltaY, modifiers };
    case 'key': {
      if (!only(m, ['type', 'action', 'key', 'code', 'text', 'keyCode', 'modifiers'])) return null;
      const code = m.code ?? '';
      const text = m.text ?? '';
      const keyCode = m.keyCode ?? 0;
      if (!isIn(KEY_ACTIONS, m.action) || !shortString(m.key, 32) || m.key === '') return null;
      if (!shortString(code, 32) || !shortString(text, 8) || !intIn(keyCode, 0, 255)) return null;
      return { type: 'key', action: m.action, key: m.key, code, text, keyCode, modifiers };
    }
    case 'text':
      if (!only(m, ['type', 'text'])) return null;
      return shortString(m.text, MAX_INSERTED_TEXT) && m.text !== '' ? { type: 'text', text: m.text } : null;
    default:
      return null;
  }
}
