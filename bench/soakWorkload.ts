/**
 * The soak's mixed workload: `connections` workers, each a user of its own on one keep-alive
 * connection, doing one request after another: sign-ins, sync, project and agent CRUD, session
 * creates, reads, releases, lists and stats. Each operation has the status it must answer; any other
 * status, and any network error, counts as an error.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/** What the workers did since the last `reset()`. */
export interface WorkloadCounts {
  requests: number;
  errors: number;
  /** Responses by HTTP status (network errors under `error`). */
  statuses: Record<string, number>;
  /** Requests per operation. */
  operations: Record<string, number>;
  /** The first few unexpected answers, `op → status: body`. */
  samples: string[];
  latenciesMs: number[];
}

interface Response {
  status: number;
  body: unknown;
}

const PASSWORD = 'correct horse battery';
const MAX_LATENCIES = 2_000_000;

/** Keep-alive JSON client over `agent`; never throws on a status, rejects on a network error. */
function client(baseUrl: string, agent: Agent) {
  const { hostname, port } = new URL(baseUrl);
  return (method: string, path: string, token?: string, body?: unknown): Promise<Response> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        {
          agent,
          hostname,
          port,
          method,
          path,
          headers: {
            ...(payload === undefined
              ? {}
              : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
          },
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {}
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(payload);
    });
}

/** One worker's user and what it owns. */
interface WorkerState {
  email: string;
  token: string;
  defaultProject: string;
  projects: string[];
  agents: string[];
  sessions: string[];
  serial: number;
}

const id = (r: Response) => (r.body as { id: string }).id;

/** A running workload. */
export interface Workload {
  counts(): WorkloadCounts;
  reset(): void;
  /** Stops the workers after their current request; resolves when all have. */
  stop(): Promise<void>;
}

/**
 * Signs up `connections` users (one per worker) and starts the workers. `provider` is the session
 * routes' provider segment (`browserbase`).
 */
export async function startWorkload(options: {
  baseUrl: string;
  connections: number;
  provider: string;
}): Promise<Workload> {
  const { baseUrl, connections, provider } = options;
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const call = client(baseUrl, agent);
  const fresh = (): WorkloadCounts => ({
    requests: 0,
    errors: 0,
    statuses: {},
    operations: {},
    samples: [],
    latenciesMs: [],
  });
  let counts = fresh();
  let stopping = false;

  const run = async (op: string, expected: number, send: () => Promise<Response>) => {
    const start = performance.now();
    counts.requests++;
    counts.operations[op] = (counts.operations[op] ?? 0) + 1;
    try {
      const response = await send();
      if (counts.latenciesMs.length < MAX_LATENCIES) counts.latenciesMs.push(performance.now() - start);
      counts.statuses[response.status] = (counts.statuses[response.status] ?? 0) + 1;
      if (response.status !== expected) {
        counts.errors++;
        if (counts.samples.length < 10)
          counts.samples.push(`${op} → ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
        return null;
      }
      return response;
    } catch (error) {
      counts.errors++;
      counts.statuses.error = (counts.statuses.error ?? 0) + 1;
      if (counts.samples.length < 10) counts.samples.push(`${op} → ${String(error)}`);
      return null;
    }
  };

  const setUp = async (i: number): Promise<WorkerState> => {
    const email = `soak-${process.pid}-${i}-${Date.now()}@example.com`;
    const must = async (r: Promise<Response>, status: number) => {
      const response = await r;
      if (response.status !== status)
        throw new Error(`soak set-up: ${response.status} ${JSON.stringify(response.body)}`);
      return response;
    };
    await must(call('POST', '/v1/auth/signup', undefined, { email, password: PASSWORD }), 201);
    const signin = await must(call('POST', '/v1/auth/signin', undefined, { email, password: PASSWORD }), 200);
    const token = (signin.body as { access_token: string }).access_token;
    const sync = await must(call('POST', '/v1/auth/sync', token), 200);
    const defaultProject = (sync.body as { project: { id: string } }).project.id;
    return { email, token, defaultProject, projects: [], agents: [], sessions: [], serial: 0 };
  };

  /** One operation, picked by weight from what the worker's state allows. */
  const step = async (s: WorkerState) => {
    const sessionsPath = `/v1/${provider}/projects/${s.defaultProject}/sessions`;
    const agentsPath = `/v1/${provider}/projects/${s.defaultProject}/agents`;
    const pick = Math.random() * 100;
    const t = s.token;
    if (pick < 1) {
      const r = await run('signin', 200, () =>
        call('POST', '/v1/auth/signin', undefined, { email: s.email, password: PASSWORD }),
      );
      if (r) s.token = (r.body as { access_token: string }).access_token;
    } else if (pick < 3) await run('sync', 200, () => call('POST', '/v1/auth/sync', t));
    else if (pick < 5) await run('me', 200, () => call('GET', '/v1/auth/me', t));
    else if (pick < 13) await run('list projects', 200, () => call('GET', '/v1/projects', t));
    else if (pick < 17) {
      if (s.projects.length < 5) {
        const r = await run('create project', 201, () =>
          call('POST', '/v1/projects', t, { name: `Soak ${++s.serial}` }),
        );
        if (r) s.projects.push(id(r));
      } else {
        const p = s.projects.shift()!;
        await run('delete project', 204, () => call('DELETE', `/v1/projects/${p}`, t));
      }
    } else if (pick < 21) {
      const p = s.projects[s.serial % Math.max(1, s.projects.length)] ?? s.defaultProject;
      await run('get project', 200, () => call('GET', `/v1/projects/${p}`, t));
    } else if (pick < 24) {
      const p = s.projects.at(-1);
      if (p)
        await run('rename project', 200, () =>
          call('PATCH', `/v1/projects/${p}`, t, { name: `Renamed ${++s.serial}` }),
        );
      else await run('list projects', 200, () => call('GET', '/v1/projects?archived=true', t));
    } else if (pick < 28) {
      if (s.agents.length < 5) {
        const r = await run('create agent', 201, () =>
          call('POST', agentsPath, t, {
            name: `agent ${++s.serial}`,
            script: 'await page.goto("https://example.com")',
            envVars: { TOKEN: `secret-${s.serial}` },
          }),
        );
        if (r) s.agents.push(id(r));
      } else {
        const a = s.agents.shift()!;
        await run('delete agent', 204, () => call('DELETE', `${agentsPath}/${a}`, t));
      }
    } else if (pick < 36) await run('list agents', 200, () => call('GET', agentsPath, t));
    else if (pick < 40) {
      const a = s.agents[0];
      if (a) await run('get agent', 200, () => call('GET', `${agentsPath}/${a}`, t));
      else await run('list agents', 200, () => call('GET', `${agentsPath}?active_only=true`, t));
    } else if (pick < 43) {
      const a = s.agents.at(-1);
      if (a)
        await run('update agent', 200, () =>
          call('PUT', `${agentsPath}/${a}`, t, { description: `v${++s.serial}` }),
        );
      else await run('list agents', 200, () => call('GET', agentsPath, t));
    } else if (pick < 52) {
      if (s.sessions.length < 10) {
        const agentId = s.serial % 2 ? (s.agents[0] ?? null) : null;
        const r = await run('create session', 201, () =>
          call('POST', sessionsPath, t, { agentId, env: { RUN: String(++s.serial) }, timeoutSec: 600 }),
        );
        if (r) s.sessions.push(id(r));
      } else {
        const x = s.sessions.shift()!;
        await run('release session', 200, () => call('POST', `${sessionsPath}/${x}:release`, t));
      }
    } else if (pick < 58) {
      const x = s.sessions.at(-1);
      if (x) await run('get session', 200, () => call('GET', `${sessionsPath}/${x}`, t));
      else await run('list sessions', 200, () => call('GET', sessionsPath, t));
    } else if (pick < 62) {
      const x = s.sessions.shift();
      if (x) await run('release session', 200, () => call('POST', `${sessionsPath}/${x}:release`, t));
      else await run('list sessions', 200, () => call('GET', sessionsPath, t));
    } else if (pick < 80) await run('list sessions', 200, () => call('GET', `${sessionsPath}?limit=20`, t));
    else if (pick < 88)
      await run('list running sessions', 200, () => call('GET', `${sessionsPath}?status=RUNNING`, t));
    else await run('session stats', 200, () => call('GET', `${sessionsPath}/dashboard/stats`, t));
  };

  // Sign-ups are argon2id: a few at a time, not all at once.
  const states: WorkerState[] = [];
  for (let i = 0; i < connections; i += 8)
    states.push(
      ...(await Promise.all(Array.from({ length: Math.min(8, connections - i) }, (_, j) => setUp(i + j)))),
    );

  const workers = states.map(async (s) => {
    while (!stopping) await step(s);
  });
  return {
    counts: () => counts,
    reset: () => {
      counts = fresh();
    },
    stop: async () => {
      stopping = true;
      await Promise.all(workers);
      agent.destroy();
    },
  };
}
