// Browserbase's Node quick-start, run against Browserdeck: only the two marked lines differ.
// BROWSERDECK_URL is the server (e.g. http://127.0.0.1:3000), BROWSERDECK_API_KEY a project API key
// (docs/api-keys.md) and BROWSERBASE_PROJECT_ID that project's id.
import Browserbase from '@browserbasehq/sdk';
import { chromium } from 'playwright-core';

const bb = new Browserbase({
  apiKey: process.env.BROWSERDECK_API_KEY, // changed: a Browserdeck project API key (bdk_…)
  baseURL: process.env.BROWSERDECK_URL, // changed: the Browserdeck server
});

const session = await bb.sessions.create({ projectId: process.env.BROWSERBASE_PROJECT_ID });
console.log(`Session created, id: ${session.id}`);

const browser = await chromium.connectOverCDP(session.connectUrl);
const defaultContext = browser.contexts()[0];
const page = defaultContext.pages()[0];
await page.goto(process.env.QUICKSTART_PAGE ?? 'https://news.ycombinator.com/');
console.log(`Title: ${await page.title()}`);

await page.close();
await browser.close();
console.log(`Session complete! ${session.id}`);
