import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RUN_LOG_LINE_CUT_MARK, RUN_LOG_LINE_MAX_BYTES } from '@browserdeck/domain';
import { eventually, givenScriptRunner, linesOf, processesUsing } from '@browserdeck/testing/local-chromium';
import { describe, expect, it } from 'vitest';
import { parseRunnerTimingsLine, runnerTimingsLine } from './runnerTimingsLine.ts';

describe('ConfinedScriptRunner (real processes, real Chromium, the strongest isolation level)', () => {
  const harness = givenScriptRunner();
  const run: ReturnType<typeof harness>['run'] = (...args) => harness().run(...args);
  const texts = linesOf;

  it("returns a data: page's title, as a function body and as an ES module importing playwright-core", async () => {
    const body = await run(
      "await page.goto('data:text/html,<title>deck title</title>'); return { title: await page.title(), input };",
      { input: { n: 1 } },
    );
    expect(body.outcome).toEqual({
      kind: 'returned',
      resultJson: '{"title":"deck title","input":{"n":1}}',
      exitCode: 0,
    });
    const module = await run(`
      import { devices } from 'playwright-core';
      import { setTimeout } from 'node:timers/promises';
      export default async function ({ page }) {
        await setTimeout(1);
        await page.goto('data:text/html,<title>module title</title>');
        return [await page.title(), typeof devices];
      }`);
    expect(module.outcome).toEqual({
      kind: 'returned',
      resultJson: '["module title","object"]',
      exitCode: 0,
    });
    expect((await run('return undefined;')).outcome).toMatchObject({ kind: 'returned', resultJson: 'null' });
  });

  it('reports a thrown error with its message (the stack on stderr) and a syntax error or a forbidden import as script_invalid', async () => {
    const thrown = await run("throw new Error('the deck is on fire');");
    expect(thrown.outcome).toEqual({
      kind: 'failed',
      code: 'script_error',
      message: 'the deck is on fire',
      exitCode: 1,
    });
    expect(texts(thrown.lines, 'stderr')[0]).toBe('Error: the deck is on fire');
    expect(texts(thrown.lines, 'stderr').some((l) => /^\s+at .*script\.mjs:1:/.test(l))).toBe(true);

    expect((await run('return (;')).outcome).toMatchObject({ kind: 'failed', code: 'script_invalid' });
    for (const script of [
      "import fs from 'fs'; export default () => 1;",
      "import x from './elsewhere.mjs'; export default () => x;",
      "await import('data:text/javascript,export default 1');",
    ])
      expect((await run(script)).outcome, script).toMatchObject({
        kind: 'failed',
        code: 'script_invalid',
        message: expect.stringMatching(/may import only playwright-core and node: built-ins/),
      });
    expect((await run("export default 'not a function';")).outcome).toMatchObject({
      kind: 'failed',
      code: 'script_invalid',
    });
  });

  it('fails a result that is over 1 MiB or not JSON with result_too_large', async () => {
    expect((await run("return 'x'.repeat(1024 * 1024 + 1);")).outcome).toMatchObject({
      kind: 'failed',
      code: 'result_too_large',
    });
    expect((await run('return 1n;')).outcome).toMatchObject({ kind: 'failed', code: 'result_too_large' });
  });

  it('kills an endless script at its deadline: timed_out, and nothing of the run is left', async () => {
    let runDir = '';
    const started = performance.now();
    const running = run(
      'log(process.cwd()); for (;;) {}',
      { timeoutMs: 1_500 },
      {
        onLine: (line) => {
          runDir ||= line.message;
        },
      },
    );
    await eventually(() => runDir !== '');
    expect(await processesUsing(runDir)).not.toEqual([]);
    const { outcome } = await running;
    expect(outcome.kind).toBe('timed_out');
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1_490);
    expect(elapsed).toBeLessThan(3_000);
    await harness().runner.settled();
    expect(await processesUsing(runDir)).toEqual([]);
    await expect(access(runDir)).rejects.toThrow(/ENOENT/);
  });

  it('kills the process when the signal aborts: aborted, and nothing of the run is left', async () => {
    const controller = new AbortController();
    let runDir = '';
    const running = run(
      'log(process.cwd()); await new Promise(() => {});',
      {},
      {
        signal: controller.signal,
        onLine: (line) => {
          runDir ||= line.message;
        },
      },
    );
    await eventually(() => runDir !== '');
    expect(await processesUsing(runDir)).not.toEqual([]);
    controller.abort();
    expect((await running).outcome.kind).toBe('aborted');
    // Its folder, disk and cgroup go after the run is answered (the unmount is the service's own).
    await harness().runner.settled();
    expect(await processesUsing(runDir)).toEqual([]);
    await expect(access(runDir)).rejects.toThrow(/ENOENT/);
  });

  it('cuts a 20 MB line and a flood of lines as they are read, without holding them', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const baseline = await retained(gc);
    let midLine: (runDir: string) => void = () => {};
    const paused = new Promise<string>((resolve) => {
      midLine = resolve;
    });
    // The script writes 20 MB of one line, then waits (for a file the test writes) before ending it.
    const running = run(
      `
      const { existsSync } = await import('node:fs');
      const chunk = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 20; i++)
        if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once('drain', r));
      log('written', process.cwd());
      while (!existsSync(process.cwd() + '/go')) await new Promise((r) => setTimeout(r, 10));
      process.stdout.write('\\n');
      for (let i = 0; i < 2000; i++) process.stdout.write('line ' + i + '\\n');
      log('é'.repeat(${RUN_LOG_LINE_MAX_BYTES}));
      return 'done';`,
      {},
      { onLine: (line) => line.message.startsWith('written ') && midLine(line.message.slice(8)) },
    );
    const runDir = await paused;
    const heldMidLine = (await retained(gc)) - baseline;
    await writeFile(join(runDir, 'go'), '');
    const { outcome, lines } = await running;
    expect(heldMidLine).toBeLessThan(8 * 1024 * 1024);
    expect(outcome).toMatchObject({ kind: 'returned', resultJson: '"done"' });
    const stdout = texts(lines, 'stdout');
    const cut = stdout.filter((line) => line.endsWith(RUN_LOG_LINE_CUT_MARK));
    expect(cut.map((line) => line[0])).toEqual(['x', 'é']);
    for (const line of cut) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(RUN_LOG_LINE_MAX_BYTES);
    const numbered = stdout.filter((line) => line.startsWith('line '));
    expect(numbered).toHaveLength(2000);
    expect(numbered.at(-1)).toBe('line 1999');
  });

  it('fails a script that allocates without end with memory_limit', async () => {
    // The heap reaches --max-old-space-size: V8 aborts the process.
    const heap = await run('const hoard = []; for (;;) hoard.push(new Array(1e6).fill(Math.random()));');
    expect(heap.outcome).toMatchObject({ kind: 'failed', code: 'memory_limit' });
    // Buffers live outside the heap: the kernel kills the process at its cgroup's limit.
    const buffers = await run('const hoard = []; for (;;) hoard.push(Buffer.alloc(16 * 1024 * 1024, 1));');
    expect(buffers.outcome).toMatchObject({ kind: 'failed', code: 'memory_limit' });
  });

  it("sends the pages' console messages and log() calls as lines of their streams, in order", async () => {
    const { outcome, lines } = await run(`
      log('before', { n: 1 });
      await page.evaluate(() => console.log('from the page'));
      log('between');
      await page.evaluate(() => console.warn('a warning'));
      const other = await context.newPage();
      await other.evaluate(() => console.log('from another page'));
      await other.close();
      log('after');
      console.log('plain stdout');
      console.error('plain stderr');`);
    expect(outcome.kind).toBe('returned');
    // log() and page console messages travel together, in order; stdout and stderr are pipes of their own.
    const reported = lines.filter((l) => l.stream !== 'system' && !l.message.startsWith('plain'));
    expect(reported.map((l) => [l.stream, l.message])).toEqual([
      ['stdout', 'before { n: 1 }'],
      ['console', 'from the page'],
      ['stdout', 'between'],
      ['console', '[warning] a warning'],
      ['console', 'from another page'],
      ['stdout', 'after'],
    ]);
    expect(texts(lines, 'stdout')).toContain('plain stdout');
    expect(texts(lines, 'stderr')).toEqual(['plain stderr']);
    for (const line of lines) expect(line.timestamp).toBeInstanceOf(Date);
  });

  it('ends the output with a system line of the timings it reported, after every line of the script', async () => {
    const { outcome, lines } = await run("log('done'); return 1;");
    expect(outcome.kind).toBe('returned');
    const timings = harness().timings.at(-1)!;
    expect(timings.connectMs).not.toBeNull();
    expect(timings.scriptMs).not.toBeNull();
    expect(lines.at(-1)).toMatchObject({ stream: 'system', message: runnerTimingsLine(timings) });
    expect(parseRunnerTimingsLine(lines.at(-1)!.message)).toMatchObject({
      warm: timings.warm,
      totalMs: Math.round(timings.totalMs),
    });
    expect(lines.filter((l) => l.stream === 'system')).toHaveLength(1);
    expect(texts(lines, 'stdout')).toEqual(['done']);
  });
});

/** Heap and buffers this process still holds, after a full collection (buffers are freed a tick later). */
async function retained(gc: () => void): Promise<number> {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
