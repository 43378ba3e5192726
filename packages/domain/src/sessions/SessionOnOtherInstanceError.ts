import { DomainError } from '../shared/DomainError.ts';

/**
 * The session's browser is held by another server instance (`BrowserSession.providerInstanceId`):
 * this one can neither reach nor stop it, so an operation that needs the browser is refused rather
 * than guessed at. A retry that reaches the instance holding it succeeds.
 */
export class SessionOnOtherInstanceError extends DomainError {
  constructor(
    message = 'This session’s browser runs on another server instance, which alone can reach it; retry there, or later.',
  ) {
    super('session_on_other_instance', message);
  }
}
