/**
 * The dependency rule of docs/architecture.md, checked by `npm run boundaries` (part of `npm test`):
 * `depcruise packages examples test bench scripts --config .dependency-cruiser.cjs`.
 * Paths are the real files an import resolves to (workspace packages through their `source`
 * export condition), relative to the repository; a package's tests are `*.test.ts` files and its
 * test kits live in `testing/` folders.
 */

/** Test kits (in-memory ports, contract suites, test apps) and the fuzz tests' helpers. */
const TEST_SUPPORT = '/(testing|fuzz)/';
/** A package's or example's files that ship or run in production: not tests, not test support. */
const SHIPPED = {
  path: '^(packages|examples)/[^/]+/src/',
  pathNot: ['\\.test\\.ts$', TEST_SUPPORT],
};
const TEST_FILE = '\\.test\\.ts$';
/** `@browserdeck/testing`'s main entry: the domain's test kit. */
const DOMAIN_KIT = '^packages/testing/src/(index\\.ts$|domain/|builders/)';
const VITEST = '(^|/)node_modules/(vitest|@vitest/[^/]+)/';
/** The Koa HTTP adapter: its kernel, feature modules (`api/`), dialects, route table and app. */
const HTTP_KOA = 'packages/adapters/src/http/koa/';
const INVERSIFY = '(^|/)node_modules/(inversify|@inversifyjs/[^/]+)/|^(inversify|@inversifyjs/)';
/**
 * Workspace internals the benchmarks still import by path, each waiting for its owner to export it
 * from the package's public entry point (or for the benchmark to be rebuilt over public API). Listed
 * one module at a time, so no other internal import slips in; remove an entry once it is public.
 */
const BENCH_AWAITING_EXPORT = [
  // bench/browserIsolation.ts: a browser launched and its CDP connection proxied below the provider.
  '^packages/adapters/src/browsers/cdp/(CdpClient|proxyCdpConnection)\\.ts$',
  '^packages/adapters/src/browsers/local-chromium/(launch/PreparedBrowser|profiles/TemporaryProfiles)\\.ts$',
  // bench/capacity.ts: the flags the provider starts Chromium with.
  '^packages/adapters/src/browsers/local-chromium/chromium/chromiumArgs\\.ts$',
  // bench/instancesGrid.ts: the Grid provider's own client and capabilities, for the direct baseline.
  '^packages/adapters/src/browsers/selenium-grid/(GridClient|gridCdpUrl|newSessionCapabilities)\\.ts$',
  // bench/liveView.ts, bench/liveViewServer.ts: the screencast hub and its frame pacing.
  '^packages/adapters/src/browsers/live-view/(ScreencastHub|TabScreencast)\\.ts$',
  // bench/instancesForwarding.ts: one signed call between instances.
  '^packages/adapters/src/instances/(InstanceAuth|instanceCalls)\\.ts$',
  // bench/scalePlans.ts: the repository's hot statements, for their query plans.
  '^packages/adapters/src/persistence/mikro-orm/(querySessionStats|querySessionStatsSeries|sessionListStatements)\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-imports-only-itself',
      comment:
        'The domain imports nothing but itself: no node: modules, no npm packages, no other workspace. ' +
        'Time, ids and randomness come through its ports.',
      severity: 'error',
      from: { path: '^packages/domain/src/', pathNot: TEST_FILE },
      to: { pathNot: '^packages/domain/src/' },
    },
    {
      name: 'domain-tests-import-only-itself-its-kit-and-vitest',
      comment:
        "The domain's tests may import vitest and the domain's test kit (`@browserdeck/testing`'s main entry) " +
        'besides the domain itself.',
      severity: 'error',
      from: { path: `^packages/domain/src/.*${TEST_FILE}` },
      to: { pathNot: ['^packages/domain/src/', DOMAIN_KIT, VITEST] },
    },
    {
      name: 'the-domain-kit-imports-only-the-domain-and-vitest',
      comment:
        "`@browserdeck/testing`'s main entry (in-memory ports, fakes, contract suites, builders) needs " +
        'nothing but the domain and vitest, so the domain can test itself with it.',
      severity: 'error',
      from: { path: DOMAIN_KIT, pathNot: TEST_FILE },
      to: { pathNot: ['^packages/domain/src/', DOMAIN_KIT, VITEST] },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself again through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'only-examples-import-inversify',
      comment: 'The library stays DI-agnostic: only the example hosts use Inversify.',
      severity: 'error',
      from: { pathNot: '^examples/' },
      to: { path: INVERSIFY },
    },
    {
      name: 'nothing-imports-the-examples',
      comment:
        'The examples are hosts: nothing depends on them (no package, benchmark, script or other example). ' +
        "test/ holds the server's own integration tests and may import it.",
      severity: 'error',
      from: { pathNot: ['^examples/', '^test/'] },
      to: { path: ['^examples/', '^@browserdeck/example'] },
    },
    {
      name: 'examples-do-not-import-each-other',
      severity: 'error',
      from: { path: '^examples/([^/]+)/' },
      to: { path: '^examples/', pathNot: '^examples/$1/' },
    },
    {
      name: 'shipped-code-imports-no-tests-or-tools',
      comment:
        "Published and production code never reaches into the repository's tests, benchmarks or scripts, " +
        'nor into any test file. (Package tests may use the shared helpers in test/.)',
      severity: 'error',
      from: SHIPPED,
      to: { path: ['^(test|bench|scripts)/', TEST_FILE] },
    },
    {
      name: 'shipped-code-imports-no-test-kits',
      comment:
        'Test kits (testing/ folders: in-memory ports, contract suites, test apps; fuzz/ helpers) are ' +
        'for tests; production code does not load them.',
      severity: 'error',
      from: SHIPPED,
      to: { path: TEST_SUPPORT },
    },
    {
      name: 'other-test-kits-only-through-their-public-subpath',
      comment:
        "A package reaches another package's test kit only through its public `/testing` subpath " +
        "(the folder's index.ts), never by a deep or relative path.",
      severity: 'error',
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/(?!$1/)[^/]+/src/(testing|.*/testing)/', pathNot: '/testing/index\\.ts$' },
    },
    {
      name: 'workspaces-import-each-other-by-name',
      comment:
        'A package or example imports another one by its package name (`@browserdeck/domain`), which ' +
        'is what a host installing the tarballs gets, never by a relative path into its folder.',
      severity: 'error',
      from: { path: '^(packages|examples)/([^/]+)/' },
      to: { path: '^(packages|examples)/', pathNot: '^$1/$2/', dependencyTypes: ['local'] },
    },
    {
      name: 'bench-imports-workspaces-by-public-entry-point',
      comment:
        'A benchmark imports a workspace package by its name only, through an entry point of its ' +
        'package.json `exports` (`@browserdeck/adapters/local-chromium`, `@browserdeck/testing/live-view`): ' +
        'what a host installing the packages gets, so it measures public API. Never a relative path into ' +
        'packages/ (a name reaches nothing the exports do not list: that is an unresolvable import). ' +
        'Exceptions waiting for an export: BENCH_AWAITING_EXPORT.',
      severity: 'error',
      from: { path: '^bench/' },
      // A relative path is a `local` dependency only; a package name resolved into its workspace is
      // also `aliased` (`aliased-workspace`).
      to: {
        path: '^packages/',
        dependencyTypes: ['local'],
        dependencyTypesNot: ['aliased'],
        pathNot: BENCH_AWAITING_EXPORT,
      },
    },
    {
      name: 'http-kernel-knows-no-feature',
      comment:
        'The HTTP kernel (routing, middleware, errors, OpenAPI builder) knows no feature and no dialect: ' +
        'it imports nothing from http/koa/api/ or http/koa/browserbase/, nor the route table or the app ' +
        'that assemble them. Features hand it what it needs (routes, schemas named with `.meta({ id })`). ' +
        'Its tests may drive the whole app.',
      severity: 'error',
      from: { path: `^${HTTP_KOA}kernel/`, pathNot: TEST_FILE },
      to: { path: `^${HTTP_KOA}(api/|browserbase/|routeTable\\.ts$|createHttpApp\\.ts$)` },
    },
    {
      name: 'providers-know-no-http',
      comment:
        'Browser providers (browsers/) expose capabilities (upgrade endpoints, WebDriver endpoints, CDP) ' +
        'and import nothing of the HTTP adapter (http/): the HTTP adapter serves them. Tests may drive ' +
        'a provider through the HTTP app; its kits live in @browserdeck/testing (serveProvider).',
      severity: 'error',
      from: { path: '^packages/adapters/src/browsers/', pathNot: [TEST_FILE] },
      to: { path: '^packages/adapters/src/http/' },
    },
    {
      name: 'no-unresolvable-imports',
      comment: 'Every import resolves to a file or a node: module (else the rules above could not see it).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // dependency-cruiser's tsc parser needs TypeScript < 7; swc parses TypeScript without it, and
    // keeps type-only imports, so a domain file may not even name a vendor's type.
    parser: 'swc',
    moduleSystems: ['es6', 'cjs'],
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|data|coverage)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
