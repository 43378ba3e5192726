import type { Clock } from '@browserdeck/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CdpClient, type CdpClientConnection } from '../CdpClient.ts';
import type { CdpCommand } from '../cdpMessages.ts';
import type { ScreencastRecording } from '../recording/ScreencastRecording.ts';
import { RECORDING_SCREENCAST, SessionLogRecorder } from './SessionLogRecorder.ts';

const T0 = Date.parse('2026-03-02T10:15:00.000Z');

/**
 * The browser end of a CDP connection: it keeps every command and answers each on the next
 * microtask (`Target.getTargetInfo` with the target's URL and title), and emits events.
 */
class FakeBrowser implements CdpClientConnection {
  readonly commands: CdpCommand[] = [];
  readonly targetInfos = new Map<string, { url: string; title: string }>();
  isClosed = false;
  private readonly client: CdpClient;

  constructor(client: CdpClient) {
    this.client = client;
  }

  send(command: CdpCommand): void {
    this.commands.push(command);
    const targetId = String(command.params?.targetId);
    const result =
      command.method === 'Target.getTargetInfo'
        ? { targetInfo: { targetId, type: 'page', ...this.targetInfos.get(targetId) } }
        : {};
    void Promise.resolve().then(() => this.client.receive({ id: command.id, result }));
  }

  close(): void {
    this.isClosed = true;
  }

  emit(method: string, params: Record<string, unknown>, sessionId?: string): void {
    this.client.receive(sessionId === undefined ? { method, params } : { method, params, sessionId });
  }

  /** A page target attached in flat mode, waiting for the debugger. */
  attachPage(sessionId: string, targetId: string, url = 'about:blank', title = ''): void {
    this.emit('Target.attachedToTarget', {
      sessionId,
      targetInfo: { targetId, type: 'page', url, title, attached: true },
      waitingForDebugger: true,
    });
  }

  /** The commands of `method` (on `sessionId` when given). */
  sent(method: string, sessionId?: string): CdpCommand[] {
    return this.commands.filter(
      (command) => command.method === method && (sessionId === undefined || command.sessionId === sessionId),
    );
  }

  /** The `sessionId`s (the screencast's frame numbers) acknowledged on `sessionId`, in order. */
  acks(sessionId: string): unknown[] {
    return this.sent('Page.screencastFrameAck', sessionId).map((command) => command.params?.sessionId);
  }

  frame(sessionId: string, frameNumber: number, data: string, timestampSeconds: number): void {
    this.emit(
      'Page.screencastFrame',
      {
        data: Buffer.from(data).toString('base64'),
        sessionId: frameNumber,
        metadata: {
          offsetTop: 0,
          pageScaleFactor: 1,
          deviceWidth: 800,
          deviceHeight: 600,
          scrollOffsetX: 0,
          scrollOffsetY: 0,
          timestamp: timestampSeconds,
        },
      },
      sessionId,
    );
  }
}

/** What the recorder calls on a recording, as mocks. */
function fakeRecording() {
  const recording = {
    tabOpened: vi.fn<ScreencastRecording['tabOpened']>(),
    tabInfo: vi.fn<ScreencastRecording['tabInfo']>(),
    tabClosed: vi.fn<ScreencastRecording['tabClosed']>(),
    frame: vi.fn<ScreencastRecording['frame']>(),
  };
  return { ...recording, asRecording: recording as unknown as ScreencastRecording };
}

/** Lets the fake browser's answers (and what waits on them) come in. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

async function startedRecorder() {
  const clock: Clock = { now: () => new Date() };
  const client = new CdpClient();
  const browser = new FakeBrowser(client);
  client.attach(browser);
  const recorder = new SessionLogRecorder({ clock, limits: { maxEntryBytes: 10_000, maxBytes: 1_000_000 } });
  await recorder.start(client);
  return { browser, recorder };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(T0);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('SessionLogRecorder.captureVideo', () => {
  it('starts the screencast on every page open already and on pages attached later, not on workers', async () => {
    const { browser, recorder } = await startedRecorder();
    browser.targetInfos.set('T1', { url: 'https://one.test/', title: 'One' });
    browser.targetInfos.set('T2', { url: 'https://two.test/', title: 'Two' });
    browser.attachPage('S1', 'T1');
    browser.attachPage('S2', 'T2');
    expect(browser.sent('Page.startScreencast')).toEqual([]);

    const recording = fakeRecording();
    recorder.captureVideo(recording.asRecording, 10);
    expect(browser.sent('Page.startScreencast', 'S1').map((command) => command.params)).toEqual([
      RECORDING_SCREENCAST,
    ]);
    expect(browser.sent('Page.startScreencast', 'S2').map((command) => command.params)).toEqual([
      RECORDING_SCREENCAST,
    ]);
    expect(recording.tabOpened).toHaveBeenCalledWith('0', { url: '', title: '' }, T0);
    expect(recording.tabOpened).toHaveBeenCalledWith('1', { url: '', title: '' }, T0);
    // Tabs open already get their URL and title from the browser.
    await settle();
    expect(browser.sent('Target.getTargetInfo').map((command) => command.params)).toEqual([
      { targetId: 'T1' },
      { targetId: 'T2' },
    ]);
    expect(recording.tabInfo).toHaveBeenCalledWith('0', { url: 'https://one.test/', title: 'One' });
    expect(recording.tabInfo).toHaveBeenCalledWith('1', { url: 'https://two.test/', title: 'Two' });

    vi.setSystemTime(T0 + 5000);
    browser.attachPage('S3', 'T3', 'https://three.test/', 'Three');
    expect(browser.sent('Page.startScreencast', 'S3').map((command) => command.params)).toEqual([
      RECORDING_SCREENCAST,
    ]);
    expect(recording.tabOpened).toHaveBeenLastCalledWith(
      '2',
      { url: 'https://three.test/', title: 'Three' },
      T0 + 5000,
    );
    // The screencast is on before the new page runs, so its first paint is recorded.
    const onS3 = browser.commands.filter((command) => command.sessionId === 'S3').map((c) => c.method);
    expect(onS3.indexOf('Page.startScreencast')).toBeLessThan(
      onS3.indexOf('Runtime.runIfWaitingForDebugger'),
    );

    browser.emit('Target.attachedToTarget', {
      sessionId: 'W1',
      targetInfo: { targetId: 'TW', type: 'service_worker', url: 'https://one.test/sw.js', title: '' },
      waitingForDebugger: true,
    });
    await settle();
    expect(browser.sent('Page.startScreencast', 'W1')).toEqual([]);
    expect(recording.tabOpened).toHaveBeenCalledTimes(3);
  });

  it('hands each frame to the recording with its page time, and acknowledges it no faster than maxFps', async () => {
    const { browser, recorder } = await startedRecorder();
    browser.attachPage('S1', 'T1');
    browser.attachPage('S2', 'T2');
    const recording = fakeRecording();
    recorder.captureVideo(recording.asRecording, 10);

    browser.frame('S1', 1, 'jpeg-one', 1_760_000_000.5);
    expect(recording.frame).toHaveBeenLastCalledWith('0', {
      jpeg: Buffer.from('jpeg-one'),
      timestampMs: 1_760_000_000_500,
      width: 800,
      height: 600,
    });
    expect(browser.acks('S1')).toEqual([1]);

    // 30 ms later: kept at once, acknowledged only 100 ms after the first ack (10 fps).
    vi.advanceTimersByTime(30);
    browser.frame('S1', 2, 'jpeg-two', 1_760_000_000.53);
    expect(recording.frame).toHaveBeenCalledTimes(2);
    expect(recording.frame.mock.calls[1]?.[1].jpeg).toEqual(Buffer.from('jpeg-two'));
    expect(recording.frame.mock.calls[1]?.[1].timestampMs).toBeCloseTo(1_760_000_000_530, 3);
    expect(browser.acks('S1')).toEqual([1]);
    // The cap is per tab: another tab's frame is acknowledged at once.
    browser.frame('S2', 7, 'jpeg-other', 1_760_000_000.53);
    expect(recording.frame).toHaveBeenLastCalledWith('1', expect.objectContaining({ width: 800 }));
    expect(browser.acks('S2')).toEqual([7]);
    vi.advanceTimersByTime(69);
    expect(browser.acks('S1')).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(browser.acks('S1')).toEqual([1, 2]);

    // Well after the gap: at once again.
    vi.advanceTimersByTime(500);
    browser.frame('S1', 3, 'jpeg-three', 1_760_000_001.1);
    expect(browser.acks('S1')).toEqual([1, 2, 3]);
    expect(recording.frame).toHaveBeenCalledTimes(4);
  });

  it('never drops a frame without acknowledging it, however fast they come', async () => {
    const { browser, recorder } = await startedRecorder();
    browser.attachPage('S1', 'T1');
    const recording = fakeRecording();
    recorder.captureVideo(recording.asRecording, 10);
    for (let n = 1; n <= 5; n++) {
      browser.frame('S1', n, `jpeg-${n}`, 1_760_000_000 + n / 100);
      vi.advanceTimersByTime(10);
    }
    expect(recording.frame).toHaveBeenCalledTimes(5);
    expect(browser.acks('S1')).toEqual([1]);
    vi.advanceTimersByTime(1000);
    expect(browser.acks('S1')).toEqual([1, 2, 3, 4, 5]);
  });

  it('takes the URL of main-frame navigations, not of child frames, and the title after a load', async () => {
    const { browser, recorder } = await startedRecorder();
    browser.attachPage('S1', 'T1', 'about:blank', '');
    const recording = fakeRecording();
    recorder.captureVideo(recording.asRecording, 10);
    await settle();
    recording.tabInfo.mockClear();

    browser.emit(
      'Page.frameNavigated',
      {
        frame: { id: 'F1', loaderId: 'L1', url: 'https://main.test/page', mimeType: 'text/html' },
        type: 'Navigation',
      },
      'S1',
    );
    expect(recording.tabInfo).toHaveBeenCalledTimes(1);
    expect(recording.tabInfo).toHaveBeenCalledWith('0', { url: 'https://main.test/page' });

    browser.emit(
      'Page.frameNavigated',
      {
        frame: { id: 'F2', parentId: 'F1', loaderId: 'L2', url: 'https://ads.test/frame' },
        type: 'Navigation',
      },
      'S1',
    );
    expect(recording.tabInfo).toHaveBeenCalledTimes(1);

    browser.targetInfos.set('T1', { url: 'https://main.test/page', title: 'Main page' });
    browser.emit('Page.loadEventFired', { timestamp: 12.5 }, 'S1');
    await settle();
    expect(browser.sent('Target.getTargetInfo').at(-1)?.params).toEqual({ targetId: 'T1' });
    expect(recording.tabInfo).toHaveBeenLastCalledWith('0', {
      url: 'https://main.test/page',
      title: 'Main page',
    });
  });

  it('stops the screencasts with null, and acknowledges later frames without keeping them', async () => {
    const { browser, recorder } = await startedRecorder();
    browser.attachPage('S1', 'T1');
    browser.attachPage('S2', 'T2');
    recorder.captureVideo(null);
    expect(browser.sent('Page.stopScreencast')).toEqual([]);

    const recording = fakeRecording();
    recorder.captureVideo(recording.asRecording, 10);
    recorder.captureVideo(null);
    expect(browser.sent('Page.stopScreencast').map((command) => command.sessionId)).toEqual(['S1', 'S2']);

    browser.frame('S1', 9, 'late', 1_760_000_000);
    expect(recording.frame).not.toHaveBeenCalled();
    expect(browser.acks('S1')).toEqual([9]);
    browser.emit('Page.frameNavigated', { frame: { id: 'F1', url: 'https://after.test/' } }, 'S1');
    expect(recording.tabInfo).not.toHaveBeenCalledWith('0', { url: 'https://after.test/' });
  });

  it('closes the tab of a page session that detached', async () => {
    const { browser, recorder } = await startedRecorder();
    browser.attachPage('S1', 'T1');
    browser.attachPage('S2', 'T2');
    const recording = fakeRecording();
    recorder.captureVideo(recording.asRecording, 10);

    vi.setSystemTime(T0 + 7000);
    browser.emit('Target.detachedFromTarget', { sessionId: 'S2', targetId: 'T2' });
    expect(recording.tabClosed).toHaveBeenCalledTimes(1);
    expect(recording.tabClosed).toHaveBeenCalledWith('1', T0 + 7000);

    browser.emit('Target.detachedFromTarget', { sessionId: 'unknown', targetId: 'TX' });
    expect(recording.tabClosed).toHaveBeenCalledTimes(1);
    // The detached session's events are no longer the tab's.
    browser.frame('S2', 1, 'gone', 1_760_000_007);
    expect(recording.frame).not.toHaveBeenCalled();
  });

  it('acknowledges every frame at once when nothing is recorded', async () => {
    const { browser } = await startedRecorder();
    browser.attachPage('S1', 'T1');
    browser.frame('S1', 1, 'a', 1_760_000_000);
    vi.advanceTimersByTime(5);
    browser.frame('S1', 2, 'b', 1_760_000_000.005);
    expect(browser.acks('S1')).toEqual([1, 2]);
  });
});
