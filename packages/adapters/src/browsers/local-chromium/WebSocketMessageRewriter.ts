import { randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

const OP_CONTINUATION = 0x0;
const OP_TEXT = 0x1;
const OP_BINARY = 0x2;
/** A client message larger than this closes the connection. */
const MAX_MESSAGE_BYTES = 100 * 1024 * 1024;

/**
 * Rewrites the data messages a WebSocket client sends (RFC 6455 framing, client → server): each
 * text or binary message is reassembled from its frames, passed to `rewrite`, and sent on as one
 * masked frame. Control frames (ping, pong, close) pass unchanged. Compressed frames (RSV1, from
 * a negotiated extension) are refused: the proxy strips `Sec-WebSocket-Extensions` so none is.
 */
export class WebSocketMessageRewriter extends Transform {
  private readonly rewrite: (message: Buffer) => Buffer;
  private pending: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private fragmentBytes = 0;
  private messageOpcode = OP_TEXT;

  constructor(rewrite: (message: Buffer) => Buffer) {
    super();
    this.rewrite = rewrite;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    try {
      for (let frame = this.nextFrame(); frame; frame = this.nextFrame()) this.onFrame(frame);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  private nextFrame(): { fin: boolean; opcode: number; payload: Buffer; raw: Buffer } | null {
    const buf = this.pending;
    if (buf.length < 2) return null;
    if (buf[0]! & 0x70) throw new Error('WebSocket extensions are not supported by the proxy');
    let length = buf[1]! & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (buf.length < 4) return null;
      length = buf.readUInt16BE(2);
      offset = 4;
    } else if (length === 127) {
      if (buf.length < 10) return null;
      const big = buf.readBigUInt64BE(2);
      if (big > BigInt(MAX_MESSAGE_BYTES)) throw new Error('WebSocket frame too large');
      length = Number(big);
      offset = 10;
    }
    const masked = (buf[1]! & 0x80) !== 0;
    const end = offset + (masked ? 4 : 0) + length;
    if (buf.length < end) return null;
    const payload = Buffer.from(buf.subarray(end - length, end));
    if (masked) {
      const key = buf.subarray(offset, offset + 4);
      for (let i = 0; i < payload.length; i++) payload[i]! ^= key[i & 3]!;
    }
    this.pending = buf.subarray(end);
    return { fin: (buf[0]! & 0x80) !== 0, opcode: buf[0]! & 0x0f, payload, raw: buf.subarray(0, end) };
  }

  private onFrame(frame: { fin: boolean; opcode: number; payload: Buffer; raw: Buffer }): void {
    if (frame.opcode >= 0x8) {
      this.push(Buffer.from(frame.raw));
      return;
    }
    if (frame.opcode === OP_TEXT || frame.opcode === OP_BINARY) this.messageOpcode = frame.opcode;
    else if (frame.opcode !== OP_CONTINUATION) throw new Error(`unknown WebSocket opcode ${frame.opcode}`);
    this.fragments.push(frame.payload);
    this.fragmentBytes += frame.payload.length;
    if (this.fragmentBytes > MAX_MESSAGE_BYTES) throw new Error('WebSocket message too large');
    if (!frame.fin) return;
    const message = this.fragments.length === 1 ? this.fragments[0]! : Buffer.concat(this.fragments);
    this.fragments = [];
    this.fragmentBytes = 0;
    this.push(encodeMaskedFrame(this.messageOpcode, this.rewrite(message)));
  }
}

/** One final, masked client frame carrying `payload`. */
export function encodeMaskedFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.alloc(headerLength + 4 + length);
  frame[0] = 0x80 | opcode;
  if (length < 126) frame[1] = 0x80 | length;
  else if (length < 65_536) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  const key = randomBytes(4);
  key.copy(frame, headerLength);
  const body = headerLength + 4;
  for (let i = 0; i < length; i++) frame[body + i] = payload[i]! ^ key[i & 3]!;
  return frame;
}
