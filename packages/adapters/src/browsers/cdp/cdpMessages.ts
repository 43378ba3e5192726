/**
 * A CDP command as a connection sends it: its own `id`, and the `sessionId` of a target attached in
 * flat mode (none addresses the connection's own browser session).
 */
export interface CdpCommand {
  readonly id: number;
  readonly method: string;
  readonly params?: Record<string, unknown>;
  readonly sessionId?: string;
}

/** A message from the browser: an answer (`id`) or an event (`method`). */
export interface CdpBrowserMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: number; message: string };
  sessionId?: string;
}

/** A CDP event: `method`, `params`, and the flat-mode `sessionId` of the target it came from. */
export interface CdpEvent {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly sessionId?: string;
}
