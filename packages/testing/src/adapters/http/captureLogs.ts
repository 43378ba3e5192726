import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';

/** A debug-level logger whose every line is kept, parsed and as written. */
export interface CapturedLogs {
  logger: Logger;
  /** Every line, parsed. */
  logs: Array<Record<string, unknown>>;
  /** Every line as written, for "this secret never appears" checks. */
  rawLogs: string[];
}

/** A pino logger at `debug` writing into memory, for tests that check what was logged. */
export function captureLogs(): CapturedLogs {
  const rawLogs: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        rawLogs.push(line);
        logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), logs, rawLogs };
}
