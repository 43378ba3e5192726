/** The Grid did not start a session within the provider's new-session deadline (→ `provider_timeout`). */
export class NewSessionDeadlineError extends Error {
  constructor(ms: number) {
    super(`No new session within ${ms} ms.`);
    this.name = 'NewSessionDeadlineError';
  }
}
