import type { TestApp, TestUser } from '@browserdeck/testing/adapters';

const PASSWORD = 'correct horse';

/**
 * The state a fuzz run works against: a signed-in user with one project, one agent and one session,
 * plus another user's project, agent and session (which must stay invisible). Successful fuzzed
 * requests may archive, delete or sign out; `ensure()` restores the fixture before the next request.
 */
export class FuzzWorld {
  readonly email = 'fuzzer@example.com';
  readonly password = PASSWORD;
  private token = '';
  private refreshToken = '';
  private userId = '';
  private projectId = '';
  private agentId = '';
  private sessionId = '';
  private apiKey = { projectId: '', key: '' };
  private other = { token: '', projectId: '', agentId: '', sessionId: '', apiKey: '' };
  private counter = 0;

  readonly t: TestApp;

  private constructor(t: TestApp) {
    this.t = t;
  }

  /** Signs the two users up and creates their fixtures through the API. */
  static async create(t: TestApp): Promise<FuzzWorld> {
    const world = new FuzzWorld(t);
    const mallory = await t.signUpAndIn('mallory@example.com', PASSWORD);
    const otherProject = await world.post(mallory.accessToken, '/v1/projects', { name: 'Mallory' });
    const otherBase = `/v1/${t.provider.name}/projects/${otherProject}`;
    world.other = {
      token: mallory.accessToken,
      projectId: otherProject,
      agentId: await world.post(mallory.accessToken, `${otherBase}/agents`, { name: 'mallory-agent' }),
      sessionId: await world.post(mallory.accessToken, `${otherBase}/sessions`, {}),
      apiKey: await world.newApiKey(mallory.accessToken, otherProject),
    };
    world.adopt(await t.signUpAndIn(world.email, PASSWORD));
    await world.ensure();
    return world;
  }

  /** Re-creates whatever a successful request took away: token, project (active), agent (active), session. */
  async ensure(): Promise<void> {
    const { t } = this;
    try {
      await t.identity.authenticate(this.token);
    } catch {
      // Straight to the identity provider: the API's sign-in is rate limited, and fuzzing hits that limit.
      const grant = await t.identity.signIn(this.email, this.password);
      this.token = grant.accessToken;
      this.refreshToken = grant.refreshToken;
    }
    const project = (await t.projects.findAccess(this.projectId, this.userId))?.project;
    if (!project) {
      this.projectId = await this.post(this.token, '/v1/projects', { name: `Fuzz ${++this.counter}` });
    } else if (project.archived) {
      await this.send(this.token, 'PATCH', `/v1/projects/${this.projectId}`, { archived: false }, 200);
    }
    const agent = await t.agents.findInProject(this.projectId, this.agentId);
    if (!agent) {
      this.agentId = await this.post(this.token, `${this.base}/agents`, {
        name: `fuzz-agent-${++this.counter}`,
      });
    } else if (!agent.active) {
      await this.send(this.token, 'PUT', `${this.base}/agents/${this.agentId}`, { active: true }, 200);
    }
    if (!(await t.sessions.findInProject(this.projectId, this.sessionId))) {
      this.sessionId = await this.post(this.token, `${this.base}/sessions`, {});
    }
    if (this.apiKey.projectId !== this.projectId) {
      this.apiKey = { projectId: this.projectId, key: await this.newApiKey(this.token, this.projectId) };
    }
  }

  /** A new project API key of `projectId` (http-api.md §12). */
  private async newApiKey(token: string, projectId: string): Promise<string> {
    const created = await this.send(
      token,
      'POST',
      `/v1/projects/${projectId}/api-keys`,
      { name: 'fuzz' },
      201,
    );
    return (created as { key: string }).key;
  }

  /** Replaces the placeholders of a generated request with the current fixture values. */
  resolve(text: string): string {
    if (!text.includes('$')) return text;
    return text
      .replaceAll('$OTHER_API_KEY$', this.other.apiKey)
      .replaceAll('$API_KEY$', this.apiKey.key)
      .replaceAll('$TOKEN$', this.token)
      .replaceAll('$REFRESH$', this.refreshToken)
      .replaceAll('$PROJECT_ID_UPPER$', this.projectId.toUpperCase())
      .replaceAll('$PROJECT_ID$', this.projectId)
      .replaceAll('$AGENT_ID$', this.agentId)
      .replaceAll('$SESSION_ID$', this.sessionId)
      .replaceAll('$OTHER_TOKEN$', this.other.token)
      .replaceAll('$OTHER_PROJECT_ID$', this.other.projectId)
      .replaceAll('$OTHER_AGENT_ID$', this.other.agentId)
      .replaceAll('$OTHER_SESSION_ID$', this.other.sessionId)
      .replace(/\$HUGE_(\d+)\$/g, (_, n: string) => 'x'.repeat(Number(n)));
  }

  /**
   * Everything the in-memory stores hold (users, identities, projects, agents, sessions, idempotency
   * keys), serialised; equal snapshots mean nothing was stored or changed. Token and revocation
   * bookkeeping of the identity provider is left out: a 401 on a reused refresh token revokes by design.
   */
  snapshot(): string {
    const { t } = this;
    const maps: Array<[object, string]> = [
      [t.users, 'users'],
      [t.identity, 'users'],
      [t.projects, 'projects'],
      [t.agents, 'agents'],
      [t.sessions, 'sessions'],
      [t.idempotency, 'records'],
    ];
    return JSON.stringify(
      maps.map(([store, field]) => {
        const map = Reflect.get(store, field);
        if (!(map instanceof Map)) throw new Error(`${store.constructor.name}.${field} is not a Map`);
        return [...map.entries()];
      }),
    );
  }

  private get base(): string {
    return `/v1/${this.t.provider.name}/projects/${this.projectId}`;
  }

  private adopt(user: TestUser): void {
    this.userId = user.id;
    this.token = user.accessToken;
    this.refreshToken = user.refreshToken;
  }

  private async post(token: string, path: string, json: unknown): Promise<string> {
    return ((await this.send(token, 'POST', path, json, 201)) as { id: string }).id;
  }

  private async send(
    token: string,
    method: string,
    path: string,
    json: unknown,
    status: number,
  ): Promise<unknown> {
    const res = await this.t.request(path, { method, token, json });
    const text = await res.text();
    if (res.status !== status) throw new Error(`fixture ${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as unknown;
  }
}
