/** One Server-Sent Event as received. */
export interface StreamEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` response to its close: every event, in order, each handed to
 * `onEvent` as soon as it has arrived.
 */
export async function readEventStream(
  response: Response,
  onEvent?: (event: StreamEvent) => void,
): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  const take = (text: string) => {
    for (const event of parseEventStream(text)) {
      events.push(event);
      onEvent?.(event);
    }
  };
  if (!response.body) return events;
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of response.body) {
    buffered += decoder.decode(chunk, { stream: true });
    const end = buffered.lastIndexOf('\n\n');
    if (end === -1) continue;
    take(buffered.slice(0, end));
    buffered = buffered.slice(end + 2);
  }
  take(buffered);
  return events;
}

/** The events of a whole `text/event-stream` body (comments left out). */
export function parseEventStream(text: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ id, event, data: data.join('\n') });
  }
  return events;
}
