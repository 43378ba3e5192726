/**
 * Asks work in progress to stop: the part of the standard `AbortSignal` the domain uses, so an
 * `AbortController`'s signal can be passed in without the domain depending on a runtime's types.
 */
export interface StopSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
