import { describe, expect, it } from 'vitest';
import { MAX_INSERTED_TEXT, MAX_VIEWER_MESSAGE_BYTES, parseViewerMessage } from './parseViewerMessage.ts';

const parse = (message: unknown) => parseViewerMessage(JSON.stringify(message));

describe('parseViewerMessage', () => {
  it('reads each message type, filling the optional fields', () => {
    expect(parse({ type: 'select', pageId: 'A1B2C3' })).toEqual({ type: 'select', pageId: 'A1B2C3' });
    expect(parse({ type: 'mouse', action: 'move', x: 0.25, y: 1 })).toEqual({
      type: 'mouse',
      action: 'move',
      x: 0.25,
      y: 1,
      button: 'none',
      buttons: 0,
      clickCount: 0,
      modifiers: 0,
    });
    expect(
      parse({
        type: 'mouse',
        action: 'down',
        x: 0,
        y: 0.5,
        button: 'right',
        buttons: 2,
        clickCount: 2,
        modifiers: 10,
      }),
    ).toEqual({
      type: 'mouse',
      action: 'down',
      x: 0,
      y: 0.5,
      button: 'right',
      buttons: 2,
      clickCount: 2,
      modifiers: 10,
    });
    expect(parse({ type: 'wheel', x: 0.5, y: 0.5, deltaX: -3, deltaY: 120 })).toEqual({
      type: 'wheel',
      x: 0.5,
      y: 0.5,
      deltaX: -3,
      deltaY: 120,
      modifiers: 0,
    });
    expect(parse({ type: 'key', action: 'down', key: 'a', code: 'KeyA', text: 'a', keyCode: 65 })).toEqual({
      type: 'key',
      action: 'down',
      key: 'a',
      code: 'KeyA',
      text: 'a',
      keyCode: 65,
      modifiers: 0,
    });
    expect(parse({ type: 'key', action: 'up', key: 'Enter' })).toEqual({
      type: 'key',
      action: 'up',
      key: 'Enter',
      code: '',
      text: '',
      keyCode: 0,
      modifiers: 0,
    });
    expect(parse({ type: 'text', text: 'pasted' })).toEqual({ type: 'text', text: 'pasted' });
  });

  it.each([
    ['not JSON', '{type:"select"}'],
    ['JSON that is not an object', '["select"]'],
    ['null', 'null'],
    ['an unknown type', JSON.stringify({ type: 'cdp', method: 'Runtime.evaluate' })],
    ['no type', JSON.stringify({ pageId: 'A' })],
    ['an extra field', JSON.stringify({ type: 'select', pageId: 'A', sessionId: 'B' })],
    ['a page id with odd characters', JSON.stringify({ type: 'select', pageId: '../x' })],
    ['an empty page id', JSON.stringify({ type: 'select', pageId: '' })],
    ['a position off the frame', JSON.stringify({ type: 'mouse', action: 'down', x: 1.01, y: 0 })],
    ['a negative position', JSON.stringify({ type: 'mouse', action: 'move', x: 0.5, y: -0.1 })],
    ['a position as a string', JSON.stringify({ type: 'mouse', action: 'move', x: '0.5', y: 0.5 })],
    ['an unknown mouse action', JSON.stringify({ type: 'mouse', action: 'click', x: 0.5, y: 0.5 })],
    ['an unknown button', JSON.stringify({ type: 'mouse', action: 'down', x: 0, y: 0, button: 'fourth' })],
    ['a click count past 3', JSON.stringify({ type: 'mouse', action: 'down', x: 0, y: 0, clickCount: 4 })],
    ['modifiers past 15', JSON.stringify({ type: 'mouse', action: 'move', x: 0, y: 0, modifiers: 16 })],
    ['fractional modifiers', JSON.stringify({ type: 'key', action: 'down', key: 'a', modifiers: 1.5 })],
    ['a huge wheel delta', JSON.stringify({ type: 'wheel', x: 0, y: 0, deltaX: 0, deltaY: 1e6 })],
    ['a wheel without deltas', JSON.stringify({ type: 'wheel', x: 0, y: 0 })],
    ['a key without key', JSON.stringify({ type: 'key', action: 'down' })],
    ['a long key name', JSON.stringify({ type: 'key', action: 'down', key: 'k'.repeat(33) })],
    [
      'a key typing a long text',
      JSON.stringify({ type: 'key', action: 'down', key: 'a', text: 'abcdefghi' }),
    ],
    ['a key code past 255', JSON.stringify({ type: 'key', action: 'down', key: 'a', keyCode: 256 })],
    ['empty text', JSON.stringify({ type: 'text', text: '' })],
    ['too long a text', JSON.stringify({ type: 'text', text: 'x'.repeat(MAX_INSERTED_TEXT + 1) })],
    ['a message past the size cap', ' '.repeat(MAX_VIEWER_MESSAGE_BYTES + 1)],
  ])('refuses %s', (_, raw) => {
    expect(parseViewerMessage(raw)).toBeNull();
  });

  it('takes text up to its limit', () => {
    expect(parse({ type: 'text', text: 'x'.repeat(MAX_INSERTED_TEXT) })).toEqual({
      type: 'text',
      text: 'x'.repeat(MAX_INSERTED_TEXT),
    });
  });
});
