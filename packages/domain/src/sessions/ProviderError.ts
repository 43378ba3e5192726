import { DomainError, type DomainErrorOptions } from '../shared/DomainError.ts';

/** The provider refused, failed, could not be reached or did not answer in time. */
export class ProviderError extends DomainError {
  constructor(
    code: 'provider_rate_limited' | 'provider_error' | 'provider_unavailable' | 'provider_timeout',
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(code, message, options);
  }
}
