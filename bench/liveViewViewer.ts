/**
 * A live-view viewer in a process of its own (bench/liveView.ts, part b), so that receiving frames
 * does not run on the driving client's event loop. Commands on stdin, one a line: `open <ws url>`
 * connects and answers `ready` once the first frame is in; `close` disconnects and answers
 * `closed <frames received after the first>`.
 */
import { createInterface } from 'node:readline';
import { LiveViewerClient } from '@browserdeck/testing/live-view';

let viewer: LiveViewerClient | null = null;
let frames = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const [command, argument] = line.trim().split(' ');
  if (command === 'open' && argument) {
    const opened = await LiveViewerClient.connect(argument);
    await opened.nextFrame(0);
    frames = 0;
    // Frames are counted, not kept: a long block would otherwise hold them all.
    opened.frames.length = 0;
    opened.onFrame = () => {
      frames++;
      opened.frames.length = 0;
    };
    viewer = opened;
    process.stdout.write('ready\n');
  } else if (command === 'close' && viewer) {
    await viewer.close();
    viewer = null;
    process.stdout.write(`closed ${frames}\n`);
  }
}
