/** The size of a browser's window and pages, in CSS pixels (`VIEWPORT_MIN_SIDE`..`VIEWPORT_MAX_SIDE`). */
export interface SessionViewport {
  readonly width: number;
  readonly height: number;
}

/**
 * One of a session's upstream proxies, in Browserbase's shapes: the caller's own proxy (`external`),
 * no proxy (`none`: direct, through the egress proxy alone) or the provider's own (`browserbase`).
 * `domainPattern` (a regular expression over the host name) picks which requests it carries; the
 * first matching entry wins, and an entry without one matches every host.
 */
export type SessionProxy =
  | {
      readonly type: 'external';
      readonly server: string;
      readonly username?: string | undefined;
      readonly password?: string | undefined;
      readonly domainPattern?: string | undefined;
    }
  | { readonly type: 'none'; readonly domainPattern?: string | undefined }
  | {
      readonly type: 'browserbase';
      readonly geolocation?:
        | { readonly country: string; readonly state?: string; readonly city?: string }
        | undefined;
      readonly domainPattern?: string | undefined;
    };

/** An extension a session's browser loads: the stored zip (validated at upload). */
export interface SessionExtension {
  readonly id: string;
  readonly name: string;
  /** The zip as uploaded: `manifest.json` at its root. */
  readonly archive: Uint8Array;
  /** The provider's own id for it, when the provider keeps extensions itself (Browserbase). */
  readonly providerExtensionId: string | null;
}
