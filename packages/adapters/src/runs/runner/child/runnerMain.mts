// A run's process: gets ready (playwright-core loaded) and waits for its one job, then connects
// to the session through the service's Unix socket, runs the script and reports (runnerProtocol).
// It runs confined, under Node's permission model, with no network of its own.
import { mkdirSync, writeFileSync } from 'node:fs';
import { flushCompileCache } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { RunnerChannel } from './RunnerChannel.mts';
import type { RunnerBoot, RunnerFailureCode, RunnerJob } from './runnerProtocol.mts';
import { importScript, REFUSED_IMPORT, scriptModuleSource } from './scriptModule.mts';

type Playwright = typeof import('playwright-core');
type Page = import('playwright-core').Page;

const channel = RunnerChannel.open();
/** When the script started (null while the runner itself is at work: its failures are `runner_failed`). */
let scriptStarted: number | null = null;
/** Longest error message sent (the job's; before it, the service's own bound as the runner knows it). */
let errorMaxChars = 4097;

process.on('uncaughtException', (error) => void fail('script_error', error));
process.on('unhandledRejection', (error) => void fail('script_error', error));
main().catch((error: unknown) => fail('script_error', error));

async function main(): Promise<void> {
  const boot = JSON.parse(await channel.nextLine()) as RunnerBoot;
  // Playwright fixes its artifacts folder as it loads: inside the run's folder, the one it may write.
  const tmp = join(boot.runDir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  process.env.TMPDIR = tmp;
  const { chromium } = (await import(boot.playwrightUrl)) as Playwright;
  // The compile cache (NODE_COMPILE_CACHE, from the process's start) is written out before any job.
  flushCompileCache();
  channel.send({ type: 'ready' });

  const job = JSON.parse(await channel.nextLine()) as RunnerJob;
  channel.close();
  errorMaxChars = job.errorMaxChars;
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, job.env);
  const cut = (message: string) =>
    message.length > job.messageMaxChars ? message.slice(0, job.messageMaxChars) : message;
  const log = (...args: unknown[]) =>
    channel.send({ type: 'log', stream: 'stdout', message: cut(format(...args)) });

  const connecting = performance.now();
  const browser = await chromium.connectOverCDP(`ws+unix://${job.socketPath}:/`);
  channel.send({ type: 'connected', connectMs: performance.now() - connecting });
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const watch = (page: Page) =>
    page.on('console', (message) => {
      const type = message.type();
      const text = type === 'log' ? message.text() : `[${type}] ${message.text()}`;
      channel.send({ type: 'log', stream: 'console', message: cut(text) });
    });
  context.pages().forEach(watch);
  context.on('page', watch);
  const page = context.pages()[0] ?? (await context.newPage());

  const scriptFile = join(boot.runDir, 'script.mjs');
  writeFileSync(scriptFile, scriptModuleSource(job.script));
  scriptStarted = performance.now();
  const loaded = await importScript(
    pathToFileURL(scriptFile).href,
    `${pathToFileURL(boot.runDir).href}/`,
    boot.playwrightUrl,
  );
  if (!loaded.ok) return fail(loaded.kind === 'invalid' ? 'script_invalid' : 'script_error', loaded.error);
  let value: unknown;
  try {
    value = await loaded.main({ browser, context, page, input: job.input, env: { ...job.env }, log });
  } catch (error) {
    const refused = (error as { code?: unknown } | null)?.code === REFUSED_IMPORT;
    return fail(refused ? 'script_invalid' : 'script_error', error);
  }
  const encoded = encodeResult(value, job.resultMaxBytes);
  if (encoded instanceof Error) return fail('result_too_large', encoded, false);
  const scriptMs = performance.now() - scriptStarted;
  // The service ends the process at its report: what the script printed goes out first.
  await flushOutput();
  channel.send({ type: 'result', json: encoded, scriptMs });
  // The session's browser stays as it is: exiting closes this process's connection to it.
  return exit(0);
}

/** The returned value as JSON (undefined as null), or why it cannot be the result. */
function encodeResult(value: unknown, maxBytes: number): string | Error {
  let json: string | undefined;
  try {
    json = JSON.stringify(value === undefined ? null : value);
  } catch (error) {
    return new Error(`the returned value is not JSON: ${messageOf(error)}`);
  }
  const text = json ?? 'null';
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes)
    return new Error(`the returned value is ${bytes} bytes of JSON, over the ${maxBytes} allowed`);
  return text;
}

/** Reports the failure (with the stack on stderr, written out first) and exits. */
async function fail(code: RunnerFailureCode, error: unknown, withStack = true): Promise<never> {
  if (withStack)
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  await flushOutput();
  channel.send({
    type: 'error',
    code: scriptStarted === null ? 'runner_failed' : code,
    message: messageOf(error).slice(0, errorMaxChars),
    scriptMs: scriptStarted === null ? null : performance.now() - scriptStarted,
  });
  return exit(1);
}

/** Resolves once what was printed so far is written out to the pipes (written asynchronously). */
function flushOutput(): Promise<void> {
  const flushed = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => stream.write('', () => resolve()));
  return Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() => {});
}

/** Exits once what was printed is written out. */
async function exit(code: number): Promise<never> {
  await flushOutput();
  process.exit(code);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
