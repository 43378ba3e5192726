/**
 * Where the web console comes from (docs/console.md). Every field has a default: the built
 * `@browserdeck/console` package, when it is installed.
 */
export interface ConsoleSettings {
  /**
   * The folder of a built console (its `index.html` and `assets/`). Default: `dist` of the
   * `@browserdeck/console` package as Node resolves it from here.
   */
  dir?: string | undefined;
  /**
   * Origins the console may frame besides its own, for live views served elsewhere (e.g. a
   * `PUBLIC_URL` on another host). Browserbase's live-view origin is added for that provider.
   */
  frameSources?: readonly string[] | undefined;
}
