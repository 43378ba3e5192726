import type { Clock, SessionViewport } from '@browserdeck/domain';
import type { BrowserConfinement } from '../../../confinement/isolation/BrowserConfinement.ts';
import type { BrowserLimits } from '../../../confinement/limits/BrowserLimits.ts';
import type { SessionLogLimits } from '../../cdp/logs/SessionLogBuffer.ts';
import type { EgressPolicy } from '../../egress/EgressPolicy.ts';
import type { UpstreamRoute } from '../../egress/UpstreamRoute.ts';
import type { TemporaryProfiles } from '../profiles/TemporaryProfiles.ts';

/**
 * Which profile a browser runs with: a fresh folder of `profiles`, a persistent folder, or a fresh
 * folder of `profiles` holding a copy of the persistent folder `from` (nothing is saved back).
 */
export type ProfileChoice =
  | { readonly kind: 'temporary'; readonly profiles: TemporaryProfiles }
  | {
      readonly kind: 'persistent';
      readonly dir: string;
      /** Runs on a staged copy written back when it stops, on any disk (else only on a limited one). */
      readonly staged?: boolean | undefined;
    }
  | { readonly kind: 'copy'; readonly profiles: TemporaryProfiles; readonly from: string };

/** Everything a browser launch needs besides its profile. */
export interface BrowserLaunchSettings {
  readonly executablePath: string;
  readonly confinement: BrowserConfinement;
  /** What the browser may reach through its egress proxy; null runs without one (tests of the proxy-less path only). */
  readonly egress: EgressPolicy | null;
  readonly clock: Clock;
  /** How the session's logs are bounded (entry size and byte budget). */
  readonly logLimits: SessionLogLimits;
  /** The window (and page) size; null or absent for Chromium's default. */
  readonly windowSize?: SessionViewport | null;
  /** The resource limits to apply (cgroup, disk); null or absent for none. */
  readonly limits?: BrowserLimits | null;
  /**
   * Where a persistent profile runs when the disk is limited: a size-limited copy in a folder of
   * `staging`, written back when the browser stops. Without it a persistent profile runs in place.
   */
  readonly staging?: TemporaryProfiles | null;
  /**
   * A session's extension (its zip), unpacked into the profile and loaded (`stageExtension`); the
   * executable must then be a full Chromium (`extensions/findExtensionsChromium`). Null or absent: none.
   */
  readonly extension?: { readonly archive: Uint8Array } | null;
  /**
   * The upstream routes of the session the browser is launched for (a cold launch), in force from
   * its first request: an extension's service worker starts with the browser, before the session
   * exists. Null or absent: a warm browser, which talks direct until a session takes it
   * (`useSessionEgress`).
   */
  readonly sessionRoutes?: readonly UpstreamRoute[] | null;
}
