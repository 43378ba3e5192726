import { describe, expect, it } from 'vitest';
import { encodeMaskedFrame, WebSocketMessageRewriter } from './WebSocketMessageRewriter.ts';

/** Decodes client frames back to `[opcode, payload]`. */
function decode(bytes: Buffer): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  let offset = 0;
  while (offset < bytes.length) {
    let length = bytes[offset + 1]! & 0x7f;
    let header = 2;
    if (length === 126) {
      length = bytes.readUInt16BE(offset + 2);
      header = 4;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(offset + 2));
      header = 10;
    }
    const key = bytes.subarray(offset + header, offset + header + 4);
    const payload = Buffer.from(bytes.subarray(offset + header + 4, offset + header + 4 + length));
    for (let i = 0; i < payload.length; i++) payload[i]! ^= key[i & 3]!;
    out.push([bytes[offset]! & 0x0f, payload.toString()]);
    offset += header + 4 + length;
  }
  return out;
}

function frame(opcode: number, payload: string, fin = true): Buffer {
  const bytes = encodeMaskedFrame(opcode, Buffer.from(payload));
  if (!fin) bytes[0] = bytes[0]! & 0x7f;
  return bytes;
}

async function run(chunks: Buffer[]): Promise<Array<[number, string]>> {
  const rewriter = new WebSocketMessageRewriter((m) => Buffer.from(m.toString().toUpperCase()));
  const out: Buffer[] = [];
  rewriter.on('data', (b: Buffer) => out.push(b));
  for (const chunk of chunks) rewriter.write(chunk);
  rewriter.end();
  await new Promise((r) => rewriter.on('end', r));
  return decode(Buffer.concat(out));
}

describe('WebSocketMessageRewriter', () => {
  it('rewrites each message, whatever the chunk boundaries, and keeps sizes of every length class', async () => {
    const long = 'x'.repeat(70_000);
    const bytes = Buffer.concat([frame(1, 'small'), frame(1, 'm'.repeat(300)), frame(1, long)]);
    const oneByteChunks = [...bytes.subarray(0, 400)].map((b) => Buffer.from([b]));
    expect(await run([...oneByteChunks, bytes.subarray(400)])).toEqual([
      [1, 'SMALL'],
      [1, 'M'.repeat(300)],
      [1, long.toUpperCase()],
    ]);
  });

  it('reassembles fragmented messages and passes control frames between fragments unchanged', async () => {
    const ping = frame(0x9, 'ping');
    const out = await run([frame(1, 'hel', false), ping, frame(0, 'lo', false), frame(0, '!')]);
    expect(out).toEqual([
      [0x9, 'ping'],
      [1, 'HELLO!'],
    ]);
  });

  it('fails on compressed frames (no extension is negotiated through the proxy)', async () => {
    const compressed = frame(1, 'zip');
    compressed[0] = compressed[0]! | 0x40;
    const rewriter = new WebSocketMessageRewriter((m) => m);
    const failed = new Promise((resolve) => rewriter.on('error', resolve));
    rewriter.write(compressed);
    expect(await failed).toBeInstanceOf(Error);
  });
});
