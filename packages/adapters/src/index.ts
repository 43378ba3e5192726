// The composition only: each adapter family has its own subpath export (`/mikro-orm`,
// `/local-chromium`, `/browserbase`, `/identity-local`, `/identity-supabase`, `/http-koa`, …), so a
// host loads just the adapters it chose; `createBrowserdeck` loads its defaults on demand.
// The Node version check comes first: it must run before any adapter module is evaluated.
import './runtime/assertSupportedNode.ts';

export * from './browsers/ProviderCapabilities.ts';
export * from './composition/index.ts';
