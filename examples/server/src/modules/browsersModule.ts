import {
  BrowserbaseProvider,
  InstrumentedBrowserProvider,
  LocalChromiumProvider,
  securePrivateDir,
} from '@browserdeck/adapters';
import { ContainerModule } from 'inversify';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/** The cloud-browser provider chosen by `BROWSER_PROVIDER`, measured for `/metrics`. */
export function browsersModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(T.BrowserProvider).toResolvedValue(
      (provider, metrics) => new InstrumentedBrowserProvider({ provider, metrics }),
      [T.ProviderBackend, T.Metrics],
    );
    if (config.BROWSER_PROVIDER === 'browserbase') {
      bind(T.ProviderBackend).toResolvedValue(
        (clock, logger) =>
          new BrowserbaseProvider({
            apiKey: config.BROWSERBASE_API_KEY ?? '',
            projectId: config.BROWSERBASE_PROJECT_ID ?? '',
            baseUrl: config.BROWSERBASE_BASE_URL,
            clock,
            logger,
          }),
        [T.Clock, T.Logger],
      );
      return;
    }
    bind(T.ProviderBackend).toResolvedValue(
      async (clock, logger) => {
        // Context profiles go in DATA_DIR/contexts: the folder must exist (0700) before the
        // provider creates anything in it with the process umask.
        await securePrivateDir(config.dataDir);
        const provider = new LocalChromiumProvider({
          publicUrl: config.publicUrl,
          dataDir: config.dataDir,
          chromiumPath: config.CHROMIUM_PATH,
          maxSessions: config.LOCAL_MAX_SESSIONS,
          warmBrowsers: config.LOCAL_WARM_BROWSERS,
          maxSessionsPerProject: config.LOCAL_MAX_SESSIONS_PER_PROJECT,
          isolation: config.LOCAL_ISOLATION,
          browserUser: config.BROWSER_USER,
          egress: {
            allowPrivate: config.EGRESS_ALLOW_PRIVATE,
            allow: config.EGRESS_ALLOW,
            deny: config.EGRESS_DENY,
          },
          clock,
          logger,
        });
        await provider.start();
        return provider;
      },
      [T.Clock, T.Logger],
    );
  });
}
