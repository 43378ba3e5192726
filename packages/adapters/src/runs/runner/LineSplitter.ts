/**
 * Splits a byte stream into lines (`\n`, a trailing `\r` dropped) without ever holding more than
 * `maxBytes` of one: a longer line is handed on at once as its first `maxBytes + 1` bytes (so the
 * receiver can tell it was cut) and the rest of it is skipped up to the next newline. A 20 MB line
 * or an endless flood costs at most that much memory.
 */
export class LineSplitter {
  private readonly maxBytes: number;
  private readonly onLine: (line: string, cut: boolean) => void;
  private readonly parts: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(maxBytes: number, onLine: (line: string, cut: boolean) => void) {
    this.maxBytes = maxBytes;
    this.onLine = onLine;
  }

  /** Takes the next chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!this.skipping) this.append(chunk.subarray(start, end));
      if (newline === -1) return;
      if (this.skipping) this.skipping = false;
      else this.emit(false);
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline is handed on. */
  end(): void {
    if (!this.skipping && this.size > 0) this.emit(false);
    this.skipping = false;
  }

  private append(part: Buffer): void {
    const room = this.maxBytes + 1 - this.size;
    if (part.length < room) {
      if (part.length > 0) this.parts.push(part);
      this.size += part.length;
      return;
    }
    // Copied: the chunk it came from is not kept alive by the part held.
    this.parts.push(Buffer.from(part.subarray(0, room)));
    this.size += room;
    this.emit(true);
    this.skipping = true;
  }

  private emit(cut: boolean): void {
    let line = Buffer.concat(this.parts, this.size).toString('utf8');
    this.parts.length = 0;
    this.size = 0;
    if (!cut && line.endsWith('\r')) line = line.slice(0, -1);
    this.onLine(line, cut);
  }
}
