// Browserbase's Selenium (Node) quick-start, run against Browserdeck: only the marked lines differ.
// BROWSERDECK_URL is the server (e.g. http://127.0.0.1:3000), BROWSERDECK_API_KEY a project API key
// (docs/api-keys.md) and BROWSERBASE_PROJECT_ID that project's id.
import http from 'node:http';
import Browserbase from '@browserbasehq/sdk';
import { Builder } from 'selenium-webdriver';

const bb = new Browserbase({
  apiKey: process.env.BROWSERDECK_API_KEY, // changed: a Browserdeck project API key (bdk_…)
  baseURL: process.env.BROWSERDECK_URL, // changed: the Browserdeck server
});

const session = await bb.sessions.create({ projectId: process.env.BROWSERBASE_PROJECT_ID });
console.log(`Session created, id: ${session.id}`);

const customHttpAgent = new http.Agent({});
customHttpAgent.addRequest = (req, options) => {
  req.setHeader('x-bb-signing-key', session.signingKey);
  http.Agent.prototype.addRequest.call(customHttpAgent, req, options);
};

const driver = new Builder()
  .forBrowser('chrome')
  .usingHttpAgent(customHttpAgent)
  .usingServer(session.seleniumRemoteUrl)
  .build();

await driver.get(process.env.QUICKSTART_PAGE ?? 'https://www.browserbase.com');
console.log(`Title: ${await driver.getTitle()}`);

// Make sure to quit the driver.
await driver.quit();
// added: quitting leaves a Browserdeck session running (Browserbase ends it): release it.
await bb.sessions.update(session.id, { status: 'REQUEST_RELEASE' });
console.log(`Session complete! ${session.id}`);
