import type { FrameMetadata } from './FrameMetadata.ts';
import type { ViewerMessage } from './parseViewerMessage.ts';
import { toPagePoint } from './toPagePoint.ts';

/** The only commands a viewer's input becomes; nothing else is ever sent on a viewer's behalf. */
export const INPUT_METHODS = [
  'Input.dispatchMouseEvent',
  'Input.dispatchKeyEvent',
  'Input.insertText',
] as const;
/** One of `INPUT_METHODS`. */
export type InputMethod = (typeof INPUT_METHODS)[number];

/** A CDP input command for the page target a viewer watches. */
export interface InputCommand {
  readonly method: InputMethod;
  readonly params: Record<string, unknown>;
}

const MOUSE_TYPES = { down: 'mousePressed', up: 'mouseReleased', move: 'mouseMoved' } as const;

/**
 * Turns a viewer's input message into its `Input.*` command, positions mapped through the latest
 * frame of the tab (`toPagePoint`); null for a message that is not input, and for a pointer message
 * before any frame (the viewer cannot have aimed at anything yet). A key that types text is a
 * `keyDown` carrying it (as Puppeteer sends keys), one that does not a `rawKeyDown`.
 */
export function toInputCommand(message: ViewerMessage, metadata: FrameMetadata | null): InputCommand | null {
  switch (message.type) {
    case 'mouse':
      if (!metadata) return null;
      return {
        method: 'Input.dispatchMouseEvent',
        params: {
          type: MOUSE_TYPES[message.action],
          ...toPagePoint(message, metadata),
          button: message.button,
          buttons: message.buttons,
          clickCount: message.clickCount,
          modifiers: message.modifiers,
        },
      };
    case 'wheel':
      if (!metadata) return null;
      return {
        method: 'Input.dispatchMouseEvent',
        params: {
          type: 'mouseWheel',
          ...toPagePoint(message, metadata),
          deltaX: message.deltaX,
          deltaY: message.deltaY,
          modifiers: message.modifiers,
        },
      };
    case 'key': {
      const type =
        message.action === 'up'
          ? 'keyUp'
          : message.action === 'char'
            ? 'char'
            : message.text
              ? 'keyDown'
              : 'rawKeyDown';
      return {
        method: 'Input.dispatchKeyEvent',
        params: {
          type,
          key: message.key,
          code: message.code,
          modifiers: message.modifiers,
          windowsVirtualKeyCode: message.keyCode,
          ...(message.text && message.action !== 'up'
            ? { text: message.text, unmodifiedText: message.text }
            : {}),
        },
      };
    }
    case 'text':
      return { method: 'Input.insertText', params: { text: message.text } };
    default:
      return null;
  }
}
