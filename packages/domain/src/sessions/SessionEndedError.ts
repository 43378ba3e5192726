import { DomainError } from '../shared/DomainError.ts';

/**
 * The session has ended (`COMPLETED`, `ERROR`, `TIMED_OUT`): what needs its running browser, such
 * as the live view, is refused with `session_ended` (409).
 */
export class SessionEndedError extends DomainError {
  constructor(message = 'The session has ended.') {
    super('session_ended', message);
  }
}
