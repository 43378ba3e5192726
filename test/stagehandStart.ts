// A Stagehand 3 session start as a Stagehand user writes it, run in a child process by
// test/stagehand.int.test.ts. Stagehand 3 builds its Browserbase client from the API key alone, so the
// server comes from BROWSERBASE_BASE_URL (read by @browserbasehq/sdk); BROWSERBASE_API_KEY and
// BROWSERBASE_PROJECT_ID name the key and its project. STAGEHAND_PAGE is the page to open.
// It prints one JSON line: the session id, the page's title and viewport, and every HTTP request made.

const requests: string[] = [];
const passThrough = globalThis.fetch;
// Before Stagehand loads: the Browserbase SDK captures `fetch` when its module is evaluated.
globalThis.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  requests.push(`${method} ${url}`);
  return passThrough(input, init);
};

const { Stagehand } = await import('@browserbasehq/stagehand');

// disableAPI: Stagehand talks to the Browserbase API only, never to its hosted Stagehand API.
const stagehand = new Stagehand({ env: 'BROWSERBASE', disableAPI: true, verbose: 0 });
await stagehand.init();
const page = stagehand.context.pages()[0] ?? (await stagehand.context.newPage());
await page.goto(process.env.STAGEHAND_PAGE ?? 'about:blank');
const title = await page.title();
const viewport = await page.evaluate<[number, number]>('[innerWidth, innerHeight]');
const sessionId = stagehand.browserbaseSessionID;
await stagehand.close();

console.log(JSON.stringify({ sessionId, title, viewport, requests }));
