import { writeSync } from 'node:fs';
import { Socket } from 'node:net';
import type { RunnerMessage } from './runnerProtocol.mts';

const CLOSED = 'the service closed the job pipe';

/** The service's end of the pipes, in the child: lines in on fd 4, messages out on fd 3. */
export class RunnerChannel {
  private readonly input: Socket;
  private buffered = '';
  private readonly lines: string[] = [];
  private waiting: { resolve(line: string): void; reject(error: Error): void } | null = null;
  private ended = false;

  private constructor(input: Socket) {
    this.input = input;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => this.receive(chunk));
    input.on('end', () => this.end());
    input.on('error', () => this.end());
  }

  /** Opens fd 4 (the service's lines) for reading. */
  static open(): RunnerChannel {
    return new RunnerChannel(new Socket({ fd: 4, readable: true, writable: false }));
  }

  /** The next line from the service; rejects when the service closed the pipe first. */
  nextLine(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.reject(new Error(CLOSED));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** Stops reading: nothing more comes from the service (a script cannot read its job again). */
  close(): void {
    this.input.destroy();
  }

  /**
   * Sends one message, synchronously: it is on its way before the next statement runs, so a
   * result is never lost to an exit right after it.
   */
  send(message: RunnerMessage): void {
    const data = Buffer.from(`${JSON.stringify(message)}\n`, 'utf8');
    for (let offset = 0; offset < data.length; ) {
      try {
        offset += writeSync(3, data, offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
    }
  }

  private receive(chunk: string): void {
    this.buffered += chunk;
    for (let newline = this.buffered.indexOf('\n'); newline !== -1; newline = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, newline);
      this.buffered = this.buffered.slice(newline + 1);
      const waiting = this.waiting;
      this.waiting = null;
      if (waiting) waiting.resolve(line);
      else this.lines.push(line);
    }
  }

  private end(): void {
    this.ended = true;
    this.waiting?.reject(new Error(CLOSED));
    this.waiting = null;
  }
}
