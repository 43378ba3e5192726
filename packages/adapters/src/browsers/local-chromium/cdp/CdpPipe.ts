import type { Readable, Writable } from 'node:stream';

/** The most one message from the browser may hold before the pipe is treated as broken. */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/**
 * Chromium's `--remote-debugging-pipe` transport: JSON messages separated by NUL bytes, written to
 * the browser's fd 3 and read from its fd 4. Incoming chunks are kept as a list and joined once a
 * message is complete, so a large message costs linear time however it is split.
 */
export class CdpPipe {
  private readonly toBrowser: Writable;
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private closed = false;
  private readonly messageListeners: Array<(message: string) => void> = [];
  private readonly closeListeners: Array<() => void> = [];

  constructor(toBrowser: Writable, fromBrowser: Readable) {
    this.toBrowser = toBrowser;
    fromBrowser.on('data', (chunk: Buffer) => this.onData(chunk));
    const onEnd = (): void => this.markClosed();
    fromBrowser.on('close', onEnd);
    fromBrowser.on('error', onEnd);
    toBrowser.on('error', onEnd);
    toBrowser.on('close', onEnd);
  }

  /** True once either direction has closed. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends one message (serialised JSON without NUL bytes); false when the pipe's buffer is full. */
  send(message: string): boolean {
    if (this.closed) return true;
    return this.toBrowser.write(`${message}\0`);
  }

  /** Resolves once the browser has read what was buffered (for back-pressure). */
  drained(): Promise<void> {
    if (this.closed || !this.toBrowser.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      this.toBrowser.once('drain', resolve);
      this.onClose(resolve);
    });
  }

  /** Calls `listener` with every message the browser sends; returns a function that stops it. */
  onMessage(listener: (message: string) => void): () => void {
    this.messageListeners.push(listener);
    return () => {
      const index = this.messageListeners.indexOf(listener);
      if (index !== -1) this.messageListeners.splice(index, 1);
    };
  }

  /** Calls `listener` once when the pipe closes (the browser exited or was killed). */
  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** Closes our end: the browser exits when it sees the pipe close. */
  close(): void {
    this.toBrowser.end();
    this.markClosed();
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
      this.chunks.push(chunk.subarray(start, end));
      const message = Buffer.concat(this.chunks).toString('utf8');
      this.chunks.length = 0;
      this.buffered = 0;
      start = end + 1;
      for (const listener of this.messageListeners) listener(message);
    }
    if (start < chunk.length) {
      this.chunks.push(chunk.subarray(start));
      this.buffered += chunk.length - start;
      if (this.buffered > MAX_MESSAGE_BYTES) this.close();
    }
  }

  private markClosed(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
