import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';

/** How long chromedriver may take to listen, and then to attach to the browser. */
const START_TIMEOUT_MS = 15_000;
/** The end of chromedriver's output kept for an error message. */
const MAX_OUTPUT_CHARS = 4_000;
/** Chromedrivers running, killed when this process exits without stopping them. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * One chromedriver attached to one running browser (`goog:chromeOptions.debuggerAddress`), for a
 * session's WebDriver endpoint. It listens on `127.0.0.1:<ephemeral>` under a random URL base
 * (`--url-base`), so another local process cannot drive it or create sessions with it (it would
 * launch any binary it is given); it gets none of the service's environment. A watchdog (a `sh`
 * waiting for its stdin to close) kills it if this process dies without stopping it, even by SIGKILL.
 */
export class Chromedriver {
  /** Where its commands go: `http://127.0.0.1:<port>/<random base>`. */
  readonly baseUrl: string;
  /** The WebDriver session attached to the browser. */
  readonly sessionId: string;
  /** That session's capabilities, as chromedriver answered them when it attached. */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Resolves once the process has exited. */
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;
  private readonly stopWatchdog: () => void;

  private constructor(parts: {
    child: ChildProcess;
    baseUrl: string;
    sessionId: string;
    capabilities: Readonly<Record<string, unknown>>;
    exited: Promise<void>;
    stopWatchdog: () => void;
  }) {
    this.child = parts.child;
    this.baseUrl = parts.baseUrl;
    this.sessionId = parts.sessionId;
    this.capabilities = parts.capabilities;
    this.exited = parts.exited;
    this.stopWatchdog = parts.stopWatchdog;
  }

  /**
   * Starts chromedriver at `path` and attaches it to the browser whose DevTools endpoint is
   * `debuggerAddress` (`127.0.0.1:<port>`); rejects, with what chromedriver said, when it cannot.
   */
  static async start(path: string, debuggerAddress: string): Promise<Chromedriver> {
    installExitHook();
    const base = `/${randomBytes(24).toString('base64url')}`;
    const child = spawn(path, ['--port=0', `--url-base=${base}`, '--log-level=SEVERE'], {
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    void exited.then(() => running.delete(child));
    const stopWatchdog = child.pid === undefined ? () => {} : startKillWatchdog(child.pid);
    void exited.then(stopWatchdog);
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT_CHARS);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    try {
      const port = await withTimeout(
        new Promise<number>((resolve, reject) => {
          child.stdout?.on('data', () => {
            const found = /started successfully on port (\d+)/.exec(output);
            if (found) resolve(Number(found[1]));
          });
          void exited.then(() => reject(new Error(`chromedriver exited: ${output.trim() || 'no output'}`)));
          child.once('error', reject);
        }),
        'chromedriver did not start',
      );
      const baseUrl = `http://127.0.0.1:${port}${base}`;
      const { sessionId, capabilities } = await withTimeout(
        attach(baseUrl, debuggerAddress),
        'chromedriver did not attach',
      );
      return new Chromedriver({ child, baseUrl, sessionId, capabilities, exited, stopWatchdog });
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
  }

  /** Stops it (its session is not deleted: the browser stays as it is) and waits for it to exit. */
  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    const killed = setTimeout(() => this.child.kill('SIGKILL'), 2_000);
    await this.exited;
    clearTimeout(killed);
    this.stopWatchdog();
  }
}

/** Creates chromedriver's session on the browser at `debuggerAddress`: its WebDriver session id and capabilities. */
async function attach(
  baseUrl: string,
  debuggerAddress: string,
): Promise<{ sessionId: string; capabilities: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      capabilities: { alwaysMatch: { 'goog:chromeOptions': { debuggerAddress } } },
    }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    value?: { sessionId?: unknown; capabilities?: unknown; message?: unknown };
  };
  if (!response.ok || typeof body.value?.sessionId !== 'string')
    throw new Error(
      `chromedriver could not attach to the browser: ${String(body.value?.message ?? response.status)}`,
    );
  const { capabilities } = body.value;
  return {
    sessionId: body.value.sessionId,
    capabilities:
      capabilities && typeof capabilities === 'object' ? (capabilities as Record<string, unknown>) : {},
  };
}

/** `promise`, or a rejection saying `what` after `START_TIMEOUT_MS`. */
function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * A `sh`, in a session of its own, that kills `pid` once its stdin closes: when this process exits,
 * even by SIGKILL. The returned function stops it (the process it watches has gone).
 */
function startKillWatchdog(pid: number): () => void {
  const watchdog = spawn(
    'sh',
    ['-c', 'read _ignored; kill -9 "$PID" 2>/dev/null', 'browserdeck-chromedriver-watch'],
    {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { PATH: '/usr/bin:/bin', PID: String(pid) },
    },
  );
  watchdog.on('error', () => {});
  watchdog.stdin?.on('error', () => {});
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return () => {
    try {
      watchdog.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  };
}

/** Chromedrivers die with this process on an ordinary exit too (the watchdogs cover the others). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}
