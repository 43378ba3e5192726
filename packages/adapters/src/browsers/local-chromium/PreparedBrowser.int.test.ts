import { SystemClock } from '@browserdeck/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CdpClient } from './CdpClient.ts';
import { PreparedBrowser } from './PreparedBrowser.ts';
import { makeScratchDir, requireChromium, tempProfilesIn } from './testing/localChromiumTestKit.ts';

describe('PreparedBrowser (real Chromium)', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let executablePath: string;

  beforeAll(async () => {
    executablePath = await requireChromium();
    scratch = await makeScratchDir();
  });

  afterAll(() => scratch?.remove());

  it("keeps a browser's pages away from the DevTools endpoints of the host's other browsers", async () => {
    const launch = () =>
      PreparedBrowser.launch({
        executablePath,
        profile: { kind: 'temporary', parentDir: scratch.dir },
        clock: new SystemClock(),
        logBufferSize: 10,
      });
    const [a, b] = await Promise.all([launch(), launch()]);
    const client = await CdpClient.connect(a.process.wsUrl);
    try {
      const { targetId } = await client.send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await client.send('Target.attachToTarget', { targetId, flatten: true });
      for (const path of ['/json/version', '/json/list', b.process.browserPath]) {
        const url = `http://127.0.0.1:${b.process.port}${path}`;
        const navigation = await client.send('Page.navigate', { url }, String(sessionId));
        expect(navigation.errorText, path).toBe('net::ERR_ACCESS_DENIED');
      }
    } finally {
      client.close();
      await Promise.all([a.dispose(), b.dispose()]);
    }
  });

  it('refuses file: navigations even from a client talking to the browser directly', async () => {
    const browser = await PreparedBrowser.launch({
      executablePath,
      profile: { kind: 'temporary', parentDir: scratch.dir },
      clock: new SystemClock(),
      logBufferSize: 10,
    });
    const client = await CdpClient.connect(browser.process.wsUrl);
    try {
      const { targetId } = await client.send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await client.send('Target.attachToTarget', { targetId, flatten: true });
      const navigation = await client.send(
        'Page.navigate',
        { url: 'file:///etc/hostname' },
        String(sessionId),
      );
      expect(navigation.errorText).toBe('net::ERR_ACCESS_DENIED');
    } finally {
      client.close();
      await browser.dispose();
    }
    expect(browser.alive).toBe(false);
    expect(await tempProfilesIn(scratch.dir)).toEqual([]);
  });
});
