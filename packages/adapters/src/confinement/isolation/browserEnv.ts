import { join } from 'node:path';

/** The browser's whole environment: nothing of the service's (no secrets, no database URL). */
export function browserEnv(profileDir: string): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: profileDir,
    XDG_CONFIG_HOME: join(profileDir, '.config'),
    XDG_CACHE_HOME: join(profileDir, '.cache'),
    LANG: 'C.UTF-8',
    ...(process.env.TZ ? { TZ: process.env.TZ } : {}),
  };
}
