// A Stagehand 4 session as a Stagehand 4 user writes it, run in a child process by
// test/stagehand4.int.test.ts: `browserbase.launch({ apiKey, baseUrl })` (it uploads Stagehand's
// extension and creates a session naming it), `Stagehand.create({ browser })` (no model key), a page,
// its title, then `stagehand.close()` and `browser.close()` (release, then the extension deleted).
// BROWSERDECK_URL is the server, BROWSERBASE_API_KEY the project's key, STAGEHAND_PAGE the page.
// It prints one JSON line: the session id, the page's title and every HTTP request made.

const requests: string[] = [];
const passThrough = globalThis.fetch;
// Before Stagehand loads: the Browserbase SDK captures `fetch` when its module is evaluated.
globalThis.fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const response = await passThrough(input, init);
  requests.push(`${method} ${url} ${response.status}`);
  return response;
};

const { browserbase, Stagehand } = await import('stagehand4');

const baseUrl = process.env.BROWSERDECK_URL as string;
const browser = await browserbase.launch({ apiKey: process.env.BROWSERBASE_API_KEY as string, baseUrl });
// apiUrl: even Stagehand's hosted API (used only by act/observe/extract without a model) stays here.
const stagehand = await Stagehand.create({ browser, apiUrl: baseUrl, logging: { level: 'warn' } });
const page = (await browser.context.pages())[0] ?? (await browser.context.newPage());
await page.goto(process.env.STAGEHAND_PAGE ?? 'about:blank');
const title = await page.title();
const sessionId = browser.sessionId;
await stagehand.close();
await browser.close();

console.log(JSON.stringify({ sessionId, title, requests }));
