/**
 * A sealed secret could not be opened: it was sealed with another key (`SECRET_KEY` changed, or a
 * different data folder's generated key), or it is damaged. The message never carries the secret.
 */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}
