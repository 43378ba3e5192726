import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from '@browserdeck/domain';

/**
 * RFC 9562 UUID version 7: 48-bit Unix milliseconds, then random bits. Ids sort by creation time,
 * which keeps B-tree inserts at the right edge of the index. Within one millisecond a counter in
 * the random field keeps ids from one generator increasing.
 */
export class UuidV7Generator implements IdGenerator {
  private lastMs = 0;
  private sequence = 0;
  private readonly bytes = new Uint8Array(16);

  next(): string {
    let ms = Date.now();
    if (ms <= this.lastMs) {
      this.sequence = (this.sequence + 1) & 0xfff;
      if (this.sequence === 0) this.lastMs++;
      ms = this.lastMs;
    } else {
      this.lastMs = ms;
      this.sequence = 0;
    }
    const b = this.bytes;
    randomFillSync(b, 8);
    for (let i = 5; i >= 0; i--) {
      b[i] = ms & 0xff;
      ms = Math.floor(ms / 256);
    }
    b[6] = 0x70 | ((this.sequence >> 8) & 0x0f);
    b[7] = this.sequence & 0xff;
    b[8] = 0x80 | ((b[8] ?? 0) & 0x3f);
    const hex = Buffer.from(b).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}
