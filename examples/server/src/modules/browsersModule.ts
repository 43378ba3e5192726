import { ContainerModule } from 'inversify';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/** The cloud-browser provider chosen by `BROWSER_PROVIDER`. */
export function browsersModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(T.BrowsersOption).toConstantValue(
      config.BROWSER_PROVIDER === 'browserbase'
        ? {
            browserbase: {
              apiKey: config.BROWSERBASE_API_KEY ?? '',
              projectId: config.BROWSERBASE_PROJECT_ID ?? '',
              baseUrl: config.BROWSERBASE_BASE_URL,
            },
          }
        : {
            local: {
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
            },
          },
    );
  });
}
