import { describe, expect, it } from 'vitest';
import { checkCdpCommand, type PolicyDecision } from './cdpCommandPolicy.ts';

const downloads = '/data/profile/Downloads';
const check = (message: object | string): PolicyDecision =>
  checkCdpCommand(typeof message === 'string' ? message : JSON.stringify(message), {
    downloadsDir: downloads,
  });
const refusal = (message: object | string): string => {
  const decision = check(message);
  if (decision.allowed) throw new Error(`allowed: ${JSON.stringify(message)}`);
  return decision.message;
};

describe('checkCdpCommand', () => {
  it('passes ordinary Playwright and Puppeteer commands, re-serialised', () => {
    const command = { id: 1, method: 'Runtime.evaluate', params: { expression: '1' }, sessionId: 'S' };
    expect(check(command)).toEqual({ allowed: true, command });
    for (const method of [
      'Browser.getVersion',
      'Target.setAutoAttach',
      'Target.createBrowserContext',
      'Target.attachToBrowserTarget',
      'Page.navigate',
      'Network.enable',
      'Fetch.continueRequest',
      'Emulation.setDeviceMetricsOverride',
      'Input.dispatchMouseEvent',
      'Page.captureScreenshot',
      'Tracing.start',
    ])
      expect(
        check({ id: 2, method, params: { autoAttach: false, url: 'https://example.com' } }).allowed,
        method,
      ).toBe(true);
  });

  it('fails closed on anything that is not strict JSON (Chrome accepts comments; we do not forward them)', () => {
    const forged =
      '/**/{"id":1,"method":"Browser.setDownloadBehavior","params":{"behavior":"allow","downloadPath":"/x"}}';
    expect(refusal(forged)).toMatch(/not strict JSON/);
    expect(refusal('{"id":1,"method":"DOM.setFileInputFiles"} // tail')).toMatch(/not strict JSON/);
    expect(refusal('[1]')).toMatch(/JSON object/);
    expect(refusal({ method: 'Runtime.evaluate' })).toMatch(/integer "id"/);
    expect(refusal({ id: 1 })).toMatch(/string "method"/);
    expect(refusal({ id: 1, method: 'Runtime.evaluate', params: [] })).toMatch(/params/);
  });

  it('forwards exactly what it checked: a duplicate key cannot smuggle another method past it', () => {
    const decision = check(
      '{"id":1,"method":"DOM.setFileInputFiles","method":"Runtime.evaluate","params":{}}',
    );
    expect(decision).toEqual({ allowed: true, command: { id: 1, method: 'Runtime.evaluate', params: {} } });
  });

  it('refuses domains outside the allowlist and denied commands, naming the rule', () => {
    for (const method of [
      'Extensions.loadUnpacked',
      'PWA.install',
      'Tethering.bind',
      'SystemInfo.getInfo',
      'Cast.enable',
      'Nope.x',
    ])
      expect(refusal({ id: 3, method })).toMatch(/allowlist/);
    for (const method of [
      'Target.exposeDevToolsProtocol',
      'Target.sendMessageToTarget',
      'Browser.executeBrowserCommand',
      'Storage.overrideQuotaForOrigin',
    ])
      expect(refusal({ id: 3, method })).toMatch(new RegExp(`${method} is not allowed \\(`));
    const refused = check({ id: 9, method: 'PWA.install', sessionId: 'S' });
    expect(refused).toMatchObject({ allowed: false, id: 9, sessionId: 'S', code: -32601 });
  });

  it('refuses nested sessions: non-flat attach and auto-attach', () => {
    expect(refusal({ id: 1, method: 'Target.attachToTarget', params: { targetId: 'T' } })).toMatch(
      /flatten: true/,
    );
    expect(
      refusal({ id: 1, method: 'Target.attachToTarget', params: { targetId: 'T', flatten: false } }),
    ).toMatch(/flatten/);
    expect(
      refusal({
        id: 1,
        method: 'Target.setAutoAttach',
        params: { autoAttach: true, waitForDebuggerOnStart: false },
      }),
    ).toMatch(/flatten/);
    expect(
      check({ id: 1, method: 'Target.attachToTarget', params: { targetId: 'T', flatten: true } }).allowed,
    ).toBe(true);
  });

  it('refuses browser contexts with a proxy of their own: they would bypass the egress proxy', () => {
    for (const params of [
      { proxyServer: 'direct://' },
      { proxyBypassList: '*' },
      { proxyServer: 'http://127.0.0.1:1' },
    ])
      expect(refusal({ id: 1, method: 'Target.createBrowserContext', params })).toMatch(/egress proxy/);
    expect(
      check({ id: 1, method: 'Target.createBrowserContext', params: { disposeOnDetach: true } }).allowed,
    ).toBe(true);
  });

  it('of Extensions, passes only the read-only list (params dropped, its answer marked for hiding host paths)', () => {
    expect(check({ id: 5, method: 'Extensions.getExtensions', params: { x: 1 }, sessionId: 'S' })).toEqual({
      allowed: true,
      command: { id: 5, method: 'Extensions.getExtensions', params: {}, sessionId: 'S' },
      answer: 'hideExtensionPaths',
    });
    for (const method of [
      'Extensions.loadUnpacked',
      'Extensions.uninstall',
      'Extensions.setStorageItems',
      'Extensions.removeStorageItems',
      'Extensions.clearStorageItems',
      'Extensions.getStorageItems',
      'Extensions.getextensions',
    ])
      expect(refusal({ id: 6, method, params: { path: '/tmp/x', id: 'abc' } }), method).toMatch(/allowlist/);
  });

  it("opens extension pages and about:blank, never the browser's own pages, however they are spelled", () => {
    const opens = (url: string) => check({ id: 7, method: 'Target.createTarget', params: { url } }).allowed;
    for (const url of [
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop/wake-service-worker.html',
      'about:blank',
      'about:blank#stagehand-client-connection',
      '',
      'https://example.com/chrome://extensions',
      'data:text/html,<a href="chrome://extensions">x</a>',
      'blob:https://example.com/0b6c0e36-7d6b-4d0e-9d0e-5f3b4a0b1c2d',
      'view-source:https://example.com',
    ])
      expect(opens(url), url).toBe(true);
    for (const url of [
      'chrome://extensions',
      'chrome://Extensions',
      'CHROME://EXTENSIONS',
      'CHROME://extensions/?id=abc',
      'chrome:extensions',
      'chrome:///extensions',
      'chrome:\\\\extensions',
      'chrome://%65xtensions',
      'chrome://extensions-internals',
      'c\throme://extensions',
      '\u0001 chrome://extensions\n',
      'view-source:chrome://extensions',
      'view-source:chrome://Extensions',
      'VIEW-SOURCE: CHROME:extensions',
      'view-source:view-source:chrome://extensions',
      'blob:chrome://extensions/0b6c0e36',
      'about:extensions',
      'ABOUT:Extensions',
      'about:%65xtensions',
      'about:BLANK',
      'about://blank',
      'about:',
      'view-source:about:extensions',
      'chrome://version',
      'chrome://flags',
      'chrome-untrusted://print',
      'chrome-search://local-ntp',
      'devtools://devtools/bundled/inspector.html',
      'DevTools://devtools',
    ])
      for (const method of ['Target.createTarget', 'Page.navigate', 'Network.loadNetworkResource'])
        expect(refusal({ id: 8, method, params: { url } }), `${method} ${url}`).toMatch(
          /may not open the browser's own pages .*chrome:\/\/extensions/,
        );
  });

  it('refuses file: URLs however they are spelled', () => {
    for (const url of [
      'file:///etc/passwd',
      ' FILE:/x',
      'fi\tle:///x',
      '\u0001file:/x',
      'view-source:file:///etc/passwd',
      'view-source: file:/x',
    ])
      for (const method of ['Target.createTarget', 'Page.navigate', 'Network.loadNetworkResource'])
        expect(refusal({ id: 4, method, params: { url } }), `${method} ${url}`).toMatch(/file: URLs/);
  });

  it('sends downloads to the session folder, whatever path the client names', () => {
    for (const method of ['Browser.setDownloadBehavior', 'Page.setDownloadBehavior'])
      expect(check({ id: 5, method, params: { behavior: 'allow', downloadPath: '/etc' } })).toEqual({
        allowed: true,
        command: { id: 5, method, params: { behavior: 'allow', downloadPath: downloads } },
      });
    expect(check({ id: 6, method: 'Page.setDownloadBehavior', params: { behavior: 'deny' } })).toMatchObject({
      command: { params: { behavior: 'deny' } },
    });
  });

  it('names downloads as the page does: allowAndName (by guid) becomes allow, in the session folder', () => {
    const params = {
      behavior: 'allowAndName',
      browserContextId: 'C',
      downloadPath: '/tmp/pw',
      eventsEnabled: true,
    };
    expect(check({ id: 9, method: 'Browser.setDownloadBehavior', params })).toEqual({
      allowed: true,
      command: {
        id: 9,
        method: 'Browser.setDownloadBehavior',
        params: { ...params, behavior: 'allow', downloadPath: downloads },
      },
    });
  });

  it('lets file inputs take files from the session’s uploads folder, and from nowhere else beside it', () => {
    const uploads = '/data/profile/Uploads';
    const withUploads = (message: object) =>
      checkCdpCommand(JSON.stringify(message), { downloadsDir: downloads, uploadsDir: uploads });
    const upload = `${uploads}/note.txt`;
    expect(withUploads({ id: 1, method: 'DOM.setFileInputFiles', params: { files: [upload] } }).allowed).toBe(
      true,
    );
    expect(
      withUploads({
        id: 2,
        method: 'DOM.setFileInputFiles',
        params: { files: [`${downloads}/a.pdf`, upload] },
      }).allowed,
    ).toBe(true);
    for (const files of [[`${uploads}/../../etc/passwd`], [uploads], ['/data/profile/Cookies']])
      expect(withUploads({ id: 3, method: 'DOM.setFileInputFiles', params: { files } })).toMatchObject({
        allowed: false,
        message: /uploads folder/,
      });
  });

  it('confines every file parameter to the session folder: file inputs, file choosers and dropped files', () => {
    const inside = `${downloads}/report.pdf`;
    for (const files of [
      ['/etc/shadow'],
      [`${downloads}/../../secret`],
      ['relative.txt'],
      [inside, '/etc/passwd'],
      [1],
    ]) {
      expect(refusal({ id: 7, method: 'DOM.setFileInputFiles', params: { files } })).toMatch(
        /downloads folder/,
      );
      expect(
        refusal({ id: 7, method: 'Page.handleFileChooser', params: { action: 'accept', files } }),
      ).toMatch(/downloads folder/);
      expect(
        refusal({
          id: 8,
          method: 'Input.dispatchDragEvent',
          params: { type: 'drop', x: 1, y: 1, data: { items: [], files } },
        }),
      ).toMatch(/downloads folder/);
    }
    expect(
      refusal({
        id: 8,
        method: 'Input.dispatchDragEvent',
        params: { type: 'drop', data: { items: [], files: '/etc' } },
      }),
    ).toMatch(/downloads folder/);
    expect(check({ id: 7, method: 'DOM.setFileInputFiles', params: { files: [inside] } }).allowed).toBe(true);
    expect(
      check({ id: 8, method: 'Input.dispatchDragEvent', params: { type: 'drop', data: { items: [] } } })
        .allowed,
    ).toBe(true);
  });

  it('without session folders (a browser on another host): refuses files, denies downloads, passes the rest', () => {
    const remote = (message: object) => checkCdpCommand(JSON.stringify(message), null);
    for (const message of [
      { id: 1, method: 'DOM.setFileInputFiles', params: { files: ['/etc/passwd'] } },
      { id: 2, method: 'Page.handleFileChooser', params: { action: 'accept', files: ['/tmp/x'] } },
      {
        id: 3,
        method: 'Input.dispatchDragEvent',
        params: { type: 'drop', data: { items: [], files: ['/x'] } },
      },
    ])
      expect(remote(message)).toMatchObject({ allowed: false, code: -32602, message: /other hosts/ });
    expect(remote({ id: 4, method: 'DOM.setFileInputFiles', params: { files: [] } }).allowed).toBe(true);
    // Playwright's connectOverCDP asks for downloads into a folder of its own machine: denied, not refused.
    expect(
      remote({
        id: 5,
        method: 'Browser.setDownloadBehavior',
        params: {
          behavior: 'allowAndName',
          browserContextId: 'C',
          downloadPath: '/tmp/pw',
          eventsEnabled: true,
        },
      }),
    ).toEqual({
      allowed: true,
      command: {
        id: 5,
        method: 'Browser.setDownloadBehavior',
        params: { behavior: 'deny', browserContextId: 'C', eventsEnabled: true },
      },
    });
    expect(remote({ id: 6, method: 'Runtime.evaluate', params: { expression: '1' } }).allowed).toBe(true);
    expect(remote({ id: 7, method: 'Page.navigate', params: { url: 'file:///etc/passwd' } }).allowed).toBe(
      false,
    );
  });
});
