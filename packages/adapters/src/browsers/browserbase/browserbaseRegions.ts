/** Regions Browserbase runs browsers in (http-api.md §5); the first is the default. */
export const BROWSERBASE_REGIONS = ['us-west-2', 'us-east-1', 'eu-central-1', 'ap-southeast-1'] as const;

/** One Browserbase region code. */
export type BrowserbaseRegion = (typeof BROWSERBASE_REGIONS)[number];

/** True when `region` is one Browserbase accepts. */
export function isBrowserbaseRegion(region: string): region is BrowserbaseRegion {
  return (BROWSERBASE_REGIONS as readonly string[]).includes(region);
}
