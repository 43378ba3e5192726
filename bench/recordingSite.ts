import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

/** The recording benchmark's loopback site: `/static` (a few KB of HTML and one PNG) and `/animated`. */
export interface RecordingSite {
  readonly url: string;
  /** `127.0.0.1:<port>`, for the server's EGRESS_ALLOW. */
  readonly host: string;
  close(): Promise<void>;
}

const TEXT = Array.from(
  { length: 24 },
  (_, i) =>
    `<p>Paragraph ${i + 1}: a session's recording keeps each tab's screencast frames, and its videos are made once the session ends. This line is here so the page has text to paint.</p>`,
).join('');

const STATIC_PAGE = `<!doctype html><html><head><title>static</title><style>body{font:16px sans-serif;margin:24px}</style></head><body><h1>A static page</h1><img src="/image.png" width="240" height="160" alt="gradient">${TEXT}</body></html>`;

/**
 * The same text under a box whose colour changes every animation frame and a square a CSS animation
 * turns: the page never stops changing, so the screencast has a new frame for every paint.
 */
const ANIMATED_PAGE = `<!doctype html><html><head><title>animated</title><style>body{font:16px sans-serif;margin:24px}@keyframes spin{to{transform:rotate(360deg)}}#s{width:80px;height:80px;background:#234;animation:spin 2s linear infinite}</style></head><body><h1>An animated page</h1><div id="b" style="width:400px;height:160px"></div><div id="s"></div>${TEXT}<script>let n = 0; const b = document.getElementById('b'); function step() { b.style.background = 'hsl(' + (n++ % 360) + ' 80% 50%)'; requestAnimationFrame(step); } step();</script></body></html>`;

/** A `width` × `height` RGB gradient as a PNG (each row with the Sub filter, one IDAT). */
export function gradientPng(width: number, height: number): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    rows[row] = 1; // Sub: each byte less the same byte of the pixel to its left
    const pixel = (x: number) => [Math.round((255 * x) / width), Math.round((255 * y) / height), 160];
    for (let x = 0; x < width; x++) {
      const left = x === 0 ? [0, 0, 0] : pixel(x - 1);
      pixel(x).forEach((value, c) => {
        rows[row + 1 + x * 3 + c] = (value - left[c]! + 256) % 256;
      });
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Starts the site on 127.0.0.1; every answer is `no-store`, so each page load fetches page and image. */
export async function startRecordingSite(): Promise<RecordingSite> {
  const image = gradientPng(240, 160);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const headers = { 'Cache-Control': 'no-store' };
    if (path === '/static') res.writeHead(200, { ...headers, 'Content-Type': 'text/html' }).end(STATIC_PAGE);
    else if (path === '/animated')
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html' }).end(ANIMATED_PAGE);
    else if (path === '/image.png')
      res.writeHead(200, { ...headers, 'Content-Type': 'image/png' }).end(image);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What the static page weighs: its HTML and its one image, in bytes. */
export const STATIC_PAGE_BYTES = {
  html: Buffer.byteLength(STATIC_PAGE),
  image: gradientPng(240, 160).length,
};
