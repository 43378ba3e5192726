import type { CdpCapability } from '@browserdeck/adapters';
import type { CdpCommand } from '@browserdeck/adapters/live-view';

/** The one tab of a `fakeCdpBrowser`. */
export const FAKE_CDP_TAB = {
  targetId: 'FAKE-TAB-1',
  type: 'page',
  url: 'about:blank',
  title: 'Blank',
} as const;

/**
 * A `cdp` capability with no browser behind it, for tests of the hub's side without Chromium: every
 * session has one tab (`FAKE_CDP_TAB`), every command is answered, a started
 * screencast sends one frame, and every command is recorded in `sent`.
 */
export function fakeCdpBrowser(): {
  cdp: CdpCapability;
  sent: CdpCommand[];
  count(method: string): number;
} {
  const sent: CdpCommand[] = [];
  const tabSession = 'FAKE-TAB-SESSION';
  const cdp: CdpCapability = {
    async open(_id, deliver) {
      let closed = false;
      const later = (message: Parameters<typeof deliver>[0]) =>
        setImmediate(() => {
          if (!closed) deliver(message);
        });
      return {
        send(command) {
          sent.push(command);
          const answer = (result: Record<string, unknown> = {}) =>
            later({ id: command.id, result, ...(command.sessionId ? { sessionId: command.sessionId } : {}) });
          if (command.method === 'Target.getTargets') answer({ targetInfos: [{ ...FAKE_CDP_TAB }] });
          else if (command.method === 'Target.attachToTarget') answer({ sessionId: tabSession });
          else answer();
          if (command.method === 'Page.startScreencast') {
            later({
              method: 'Page.screencastFrame',
              sessionId: tabSession,
              params: {
                sessionId: 1,
                data: Buffer.from('not really a jpeg').toString('base64'),
                metadata: { deviceWidth: 800, deviceHeight: 600, offsetTop: 0, pageScaleFactor: 1 },
              },
            });
          }
        },
        close() {
          closed = true;
        },
        get isClosed() {
          return closed;
        },
      };
    },
  };
  return { cdp, sent, count: (method) => sent.filter((c) => c.method === method).length };
}
