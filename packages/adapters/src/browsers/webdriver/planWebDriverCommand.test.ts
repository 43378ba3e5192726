import { describe, expect, it } from 'vitest';
import { planWebDriverCommand } from './planWebDriverCommand.ts';

const ids = { webdriverSessionId: 'wd1', aliases: ['psid-1', 'bd-1'] };

describe('planWebDriverCommand', () => {
  it('sends a command for the bound session on under its WebDriver id, whichever id names it', () => {
    for (const id of ['wd1', 'psid-1', 'bd-1'])
      expect(planWebDriverCommand('POST', `/session/${id}/element/abc/click`, ids)).toEqual({
        kind: 'forward',
        path: '/session/wd1/element/abc/click',
      });
    expect(planWebDriverCommand('GET', '/session/psid-1', ids)).toEqual({
      kind: 'forward',
      path: '/session/wd1',
    });
  });

  it('refuses another session id, and plans a new session as an answer with the bound one', () => {
    expect(planWebDriverCommand('GET', '/session/other/url', ids)).toMatchObject({
      kind: 'refuse',
      status: 404,
      error: 'invalid session id',
    });
    expect(planWebDriverCommand('POST', '/session', ids)).toEqual({ kind: 'newSession' });
    expect(planWebDriverCommand('GET', '/session', ids)).toMatchObject({ error: 'unknown method' });
  });

  it('answers DELETE of the session and /status itself', () => {
    expect(planWebDriverCommand('DELETE', '/session/bd-1', ids)).toEqual({
      kind: 'answer',
      status: 200,
      body: { value: null },
    });
    expect(planWebDriverCommand('DELETE', '/session/bd-1/window', ids)).toEqual({
      kind: 'forward',
      path: '/session/wd1/window',
    });
    expect(planWebDriverCommand('GET', '/status', ids)).toMatchObject({ kind: 'answer', status: 200 });
  });

  it('says at /status that it is ready for a new session (answered with the bound one)', () => {
    expect(planWebDriverCommand('GET', '/status', ids)).toMatchObject({ body: { value: { ready: true } } });
  });

  it('checks DevTools commands and refuses the WebSocket, upload and raw-DevTools routes', () => {
    for (const command of ['goog/cdp/execute', 'ms/cdp/execute', 'chromium/send_command_and_get_result'])
      expect(planWebDriverCommand('POST', `/session/wd1/${command}`, ids)).toEqual({
        kind: 'cdp',
        path: `/session/wd1/${command}`,
      });
    for (const command of ['file', 'se/cdp', 'se/bidi', 'chromium/send_command_from_websocket'])
      expect(planWebDriverCommand('POST', `/session/wd1/${command}`, ids)).toMatchObject({
        kind: 'refuse',
        status: 403,
        error: 'unsupported operation',
      });
  });

  it('never sends on what is not a session command, or a path with dot segments or encoded slashes', () => {
    for (const subpath of [
      '',
      '/',
      '/shutdown',
      '/sessions',
      '/session/wd1/../../shutdown',
      '/session/wd1/%2e%2e/%2E%2E/shutdown',
      '/session/wd1/a%2Fb',
      '/session/wd1//url',
      '/session/wd1/%zz',
    ])
      expect(planWebDriverCommand('GET', subpath, ids)).toMatchObject({
        kind: 'refuse',
        error: 'unknown command',
      });
  });
});
