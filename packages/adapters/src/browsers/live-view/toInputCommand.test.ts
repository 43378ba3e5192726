import { describe, expect, it } from 'vitest';
import type { FrameMetadata } from './FrameMetadata.ts';
import { toInputCommand } from './toInputCommand.ts';
import { toPagePoint } from './toPagePoint.ts';

const desktop: FrameMetadata = {
  deviceWidth: 1280,
  deviceHeight: 720,
  offsetTop: 0,
  pageScaleFactor: 1,
  scrollOffsetX: 0,
  scrollOffsetY: 300,
  timestamp: 1,
};

describe('toPagePoint', () => {
  it('maps fractions of the frame to CSS pixels of the viewport, whatever size the image is shown at', () => {
    expect(toPagePoint({ x: 0.5, y: 0.5 }, desktop)).toEqual({ x: 640, y: 360 });
    expect(toPagePoint({ x: 0.1, y: 0.9 }, desktop)).toEqual({ x: 128, y: 648 });
    expect(toPagePoint({ x: 0, y: 0 }, desktop)).toEqual({ x: 0, y: 0 });
  });

  it('keeps the far edges inside the viewport', () => {
    expect(toPagePoint({ x: 1, y: 1 }, desktop)).toEqual({ x: 1279.99, y: 719.99 });
  });

  it('takes off the top offset where the page starts below browser chrome, and clamps above it', () => {
    const mobile = { ...desktop, deviceWidth: 400, deviceHeight: 800, offsetTop: 56 };
    expect(toPagePoint({ x: 0.5, y: 0.5 }, mobile)).toEqual({ x: 200, y: 344 });
    expect(toPagePoint({ x: 0.5, y: 0.05 }, mobile)).toEqual({ x: 200, y: 0 });
  });

  it('does not divide out the pinch zoom (as DevTools does not) and ignores scrolling', () => {
    expect(toPagePoint({ x: 0.25, y: 0.25 }, { ...desktop, pageScaleFactor: 2 })).toEqual({ x: 320, y: 180 });
  });

  it('rounds to hundredths', () => {
    expect(toPagePoint({ x: 1 / 3, y: 1 / 7 }, desktop)).toEqual({ x: 426.67, y: 102.86 });
  });
});

describe('toInputCommand', () => {
  it('turns mouse messages into mouse events at the mapped point', () => {
    expect(
      toInputCommand(
        {
          type: 'mouse',
          action: 'down',
          x: 0.5,
          y: 0.25,
          button: 'left',
          buttons: 1,
          clickCount: 2,
          modifiers: 2,
        },
        desktop,
      ),
    ).toEqual({
      method: 'Input.dispatchMouseEvent',
      params: {
        type: 'mousePressed',
        x: 640,
        y: 180,
        button: 'left',
        buttons: 1,
        clickCount: 2,
        modifiers: 2,
      },
    });
    const move = {
      type: 'mouse',
      action: 'move',
      x: 0,
      y: 0,
      button: 'none',
      buttons: 0,
      clickCount: 0,
      modifiers: 0,
    } as const;
    expect(toInputCommand(move, desktop)?.params.type).toBe('mouseMoved');
    expect(toInputCommand({ ...move, action: 'up' }, desktop)?.params.type).toBe('mouseReleased');
  });

  it('turns a wheel message into a mouseWheel event', () => {
    expect(
      toInputCommand({ type: 'wheel', x: 1, y: 0, deltaX: 5, deltaY: -120, modifiers: 8 }, desktop),
    ).toEqual({
      method: 'Input.dispatchMouseEvent',
      params: { type: 'mouseWheel', x: 1279.99, y: 0, deltaX: 5, deltaY: -120, modifiers: 8 },
    });
  });

  it('drops pointer input before any frame, but not keys or text', () => {
    const key = {
      type: 'key',
      action: 'down',
      key: 'a',
      code: 'KeyA',
      text: 'a',
      keyCode: 65,
      modifiers: 0,
    } as const;
    expect(
      toInputCommand({ type: 'wheel', x: 0, y: 0, deltaX: 0, deltaY: 1, modifiers: 0 }, null),
    ).toBeNull();
    expect(
      toInputCommand(
        {
          type: 'mouse',
          action: 'down',
          x: 0,
          y: 0,
          button: 'left',
          buttons: 1,
          clickCount: 1,
          modifiers: 0,
        },
        null,
      ),
    ).toBeNull();
    expect(toInputCommand(key, null)?.method).toBe('Input.dispatchKeyEvent');
    expect(toInputCommand({ type: 'text', text: 'ok' }, null)).toEqual({
      method: 'Input.insertText',
      params: { text: 'ok' },
    });
  });

  it('sends a key that types as keyDown with its text, one that does not as rawKeyDown, and keyUp bare', () => {
    const base = { type: 'key', code: 'KeyA', keyCode: 65, modifiers: 8 } as const;
    expect(toInputCommand({ ...base, action: 'down', key: 'A', text: 'A' }, desktop)).toEqual({
      method: 'Input.dispatchKeyEvent',
      params: {
        type: 'keyDown',
        key: 'A',
        code: 'KeyA',
        modifiers: 8,
        windowsVirtualKeyCode: 65,
        text: 'A',
        unmodifiedText: 'A',
      },
    });
    expect(toInputCommand({ ...base, action: 'up', key: 'A', text: 'A' }, desktop)).toEqual({
      method: 'Input.dispatchKeyEvent',
      params: { type: 'keyUp', key: 'A', code: 'KeyA', modifiers: 8, windowsVirtualKeyCode: 65 },
    });
    expect(
      toInputCommand(
        {
          type: 'key',
          action: 'down',
          key: 'ArrowLeft',
          code: 'ArrowLeft',
          text: '',
          keyCode: 37,
          modifiers: 0,
        },
        desktop,
      )?.params.type,
    ).toBe('rawKeyDown');
    expect(toInputCommand({ ...base, action: 'char', key: 'A', text: 'A' }, desktop)?.params.type).toBe(
      'char',
    );
  });

  it('is null for a tab switch', () => {
    expect(toInputCommand({ type: 'select', pageId: 'A' }, desktop)).toBeNull();
  });
});
