/** One recorded browser event, in Browserbase's log shape (CDP events). */
export interface SessionLogEntry {
  /** Milliseconds since the Unix epoch. */
  readonly timestamp: number;
  /** The CDP event, e.g. `Runtime.consoleAPICalled`, `Network.requestWillBeSent`. */
  readonly method: string;
  readonly pageId: number;
  readonly frameId?: string;
  readonly loaderId?: string;
  readonly request?: { timestamp?: number; params?: Record<string, unknown>; rawBody?: string };
  readonly response?: { timestamp?: number; result?: Record<string, unknown>; rawBody?: string };
}
