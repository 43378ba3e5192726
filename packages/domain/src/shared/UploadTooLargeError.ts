import { DomainError } from './DomainError.ts';

/**
 * An uploaded file (a session upload, an extension's zip) is larger than the limit that applies to
 * it: `payload_too_large` (413). `maxBytes` is that limit, said in the message so the client knows it.
 */
export class UploadTooLargeError extends DomainError {
  readonly maxBytes: number;

  constructor(maxBytes: number, message = `The file is larger than the limit of ${maxBytes} bytes.`) {
    super('payload_too_large', message);
    this.maxBytes = maxBytes;
  }
}
