import { once } from 'node:events';
import type { RunLogEvent } from '@browserdeck/domain';
import { Session } from 'better-sse';
import type { EventStreamConnection } from './EventStreamConnection.ts';
import { presentRun, presentRunLogLine } from './presentRun.ts';

/** Default gap between heartbeat comments, which keep idle proxies from closing the stream. */
export const RUN_LOG_HEARTBEAT_MS = 15_000;

/** How a log stream is written. */
export interface RunLogStreamOptions {
  /** The `seq` the client has (0: none); the first event is the line after it. */
  afterSeq: number;
  /** Milliseconds between heartbeat comments. */
  heartbeatMs: number;
}

/**
 * Opens a better-sse session on `connection` and writes `events` to it: each line as a `log` event
 * whose id is its `seq` (so an `EventSource` resumes with `Last-Event-ID`) and data the line's JSON,
 * then one `end` event with the terminal run, then the stream closes. A heartbeat comment goes out
 * every `heartbeatMs` meanwhile. Resolves once the session is connected; the events are written
 * after. A failure while following (the run was deleted, the database went away) closes the stream
 * without `end`: the client reconnects and reads the error as an ordinary answer.
 */
export async function streamRunLogs(
  connection: EventStreamConnection,
  events: AsyncIterable<RunLogEvent>,
  options: RunLogStreamOptions,
): Promise<void> {
  const session = new Session(connection, { keepAlive: options.heartbeatMs, trustClientEventId: false });
  await once(session, 'connected');
  void pump(session, connection, events, options.afterSeq);
}

async function pump(
  session: Session,
  connection: EventStreamConnection,
  events: AsyncIterable<RunLogEvent>,
  afterSeq: number,
): Promise<void> {
  // The id of every event is a seq, also the end's, so the client's last event id stays one.
  let lastSeq = afterSeq;
  try {
    for await (const event of events) {
      if (!session.isConnected) break;
      if (event.type === 'end') {
        session.push(presentRun(event.run), 'end', String(lastSeq));
        break;
      }
      lastSeq = event.line.seq;
      session.push(presentRunLogLine(event.line), 'log', String(lastSeq));
      await connection.drained();
    }
  } catch {
    // Closing is the answer: see streamRunLogs.
  } finally {
    connection.end();
  }
}
