import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generateKeys } from '../examples/server/src/generateKeys.ts';
import {
  copyKubernetes,
  type TestCluster,
  type TestInstance,
  writeTestCluster,
} from './clusterTestOverlay.ts';
import { composeShape, kubeShape, readCompose } from './clusterTopology.ts';
import { freePort } from './freePort.ts';
import { callInstance, eventually, through } from './instancesApi.ts';
import { type KubeObject, kustomize, objectNamed } from './kustomize.ts';
import {
  BASE_TAG,
  buildImage,
  containerLogs,
  ensureBaseImage,
  ensurePodman,
  IMAGE_TAG,
  podman,
} from './podman.ts';
import {
  buildPostgresImage,
  downKube,
  type PlayedKube,
  POSTGRES_TAG,
  playKube,
  writeContainersConf,
} from './podmanKube.ts';

/**
 * SPEC §16's cluster recipe, for real. deploy/kubernetes/overlays/local, rendered by kustomize,
 * runs under `podman kube play` (a test overlay changes only what podman 4.3 cannot do): a
 * PostgreSQL pod and two Browserdeck pods of the image the repository's Dockerfile builds, and a
 * session created on one instance is read, driven and released through the other. deploy/compose.yaml
 * (no Docker engine here) is checked to describe the same instances as the Grid overlay.
 */

const log = (line: string) => console.log(`[cluster] ${line}`);
const scratch = mkdtempSync(join(tmpdir(), 'browserdeck-cluster-'));
const PASSWORD = 'correct horse battery';
/** Variables every instance needs in either recipe (docs/scaling.md, "N instances and PostgreSQL"). */
const INSTANCE_VARIABLES = [
  'DATABASE_URL',
  'SECRET_KEY',
  'JWT_PRIVATE_KEY',
  'PUBLIC_URL',
  'TRUST_PROXY',
  'INSTANCE_URL',
  'LOCAL_INSTANCE_ID',
  'SHUTDOWN_GRACE_SEC',
  'BROWSER_PROVIDER',
];
const BUBBLEWRAP = ['apparmor:unconfined', 'cap:SYS_ADMIN', 'proc:unmasked', 'seccomp:unconfined'];

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the cluster recipe: deploy/compose.yaml and deploy/kubernetes describe one topology', () => {
  // biome-ignore lint/suspicious/noExplicitAny: a Compose file is read field by field.
  let compose: any;
  let local: KubeObject[];
  let grid: KubeObject[];
  let postgres: KubeObject[];
  let chart: { name: string; repo: string; releaseName: string };

  beforeAll(async () => {
    const secrets = `${generateKeys()}DATABASE_URL=postgres://browserdeck:pw@browserdeck-postgres:5432/browserdeck\n`;
    const root = copyKubernetes(join(scratch, 'topology'), { secrets, password: 'pw' });
    // The chart renders only with helm (`kubectl kustomize --enable-helm`), which this machine has
    // not: the Grid overlay's own part is rendered without it, and its chart entry read as written.
    const gridFile = join(root, 'overlays/grid/kustomization.yaml');
    const { helmCharts, ...withoutChart } = parse(readFileSync(gridFile, 'utf8'));
    chart = helmCharts[0];
    writeFileSync(gridFile, stringify(withoutChart));
    [local, grid, postgres] = await Promise.all([
      kustomize(join(root, 'overlays/local')),
      kustomize(join(root, 'overlays/grid')),
      kustomize(join(root, 'postgres')),
    ]);
    compose = readCompose();
  }, 60_000);

  it('gives each Compose instance what the Grid overlay gives each pod: variables, probe, grace, isolation', () => {
    const pod = kubeShape(grid, 'browserdeck');
    expect(pod.variables).toEqual(expect.arrayContaining([...INSTANCE_VARIABLES, 'SELENIUM_GRID_URL']));
    expect(pod.values.BROWSER_PROVIDER).toBe('selenium-grid');
    expect(pod.readyPath).toBe('/readyz');
    expect(pod.isolation).toEqual(BUBBLEWRAP);
    expect(pod.stopGraceSec).toBeGreaterThan(Number(pod.values.SHUTDOWN_GRACE_SEC));
    for (const name of ['browserdeck-a', 'browserdeck-b']) {
      const service = composeShape(compose, name);
      expect(service.variables).toEqual(expect.arrayContaining([...INSTANCE_VARIABLES, 'SELENIUM_GRID_URL']));
      expect({ ...service, variables: [] }).toEqual({ ...pod, variables: [] });
    }
    // The local overlay: the same pod, its browsers in it.
    const localPod = kubeShape(local, 'browserdeck');
    expect(localPod.values.BROWSER_PROVIDER).toBe('local');
    expect(localPod.values.SELENIUM_GRID_URL).toBeUndefined();
    expect({ ...localPod, values: {} }).toEqual({
      ...pod,
      variables: pod.variables.filter((v) => v !== 'SELENIUM_GRID_URL'),
      values: {},
    });
  });

  it('runs two instances, each with its own id, data folder and instance URL, behind one PUBLIC_URL', () => {
    const [a, b] = ['browserdeck-a', 'browserdeck-b'].map((name) => compose.services[name]);
    expect(a.environment.LOCAL_INSTANCE_ID).not.toBe(b.environment.LOCAL_INSTANCE_ID);
    expect(new URL(a.environment.INSTANCE_URL).hostname).toBe('browserdeck-a');
    expect(new URL(b.environment.INSTANCE_URL).hostname).toBe('browserdeck-b');
    expect(a.volumes).not.toEqual(b.volumes);
    expect([...a.volumes, ...b.volumes].every((v: string) => v.endsWith(':/data'))).toBe(true);
    expect(a.environment.PUBLIC_URL).toBe(b.environment.PUBLIC_URL);
    expect(new URL(a.environment.DATABASE_URL.replace(/\$\{[^}]*\}/g, 'x')).hostname).toBe('postgres');

    const deployment = objectNamed(local, 'Deployment', 'browserdeck');
    expect(deployment.spec.replicas).toBe(2);
    const spec = deployment.spec.template.spec;
    const env = Object.fromEntries(spec.containers[0].env.map((e: { name: string }) => [e.name, e]));
    expect(env.LOCAL_INSTANCE_ID.valueFrom.fieldRef.fieldPath).toBe('metadata.name');
    expect(env.POD_IP.valueFrom.fieldRef.fieldPath).toBe('status.podIP');
    expect(env.INSTANCE_URL.value).toBe('http://$(POD_IP):3000');
    expect(spec.volumes.find((v: { name: string }) => v.name === 'data').emptyDir).toBeDefined();
    expect(spec.containers[0].livenessProbe.httpGet.path).toBe('/healthz');
    expect(spec.containers[0].startupProbe.httpGet.path).toBe('/healthz');
    // The Service and the disruption budget select exactly these pods.
    const labels = deployment.spec.template.metadata.labels;
    expect(objectNamed(local, 'Service', 'browserdeck').spec.selector).toEqual(labels);
    const budget = objectNamed(local, 'PodDisruptionBudget', 'browserdeck').spec;
    expect(budget.selector.matchLabels).toEqual(labels);
    expect(budget.minAvailable).toBe(1);
  });

  it('has a worker, PostgreSQL and a Selenium Grid beside them; the Grid overlay installs the chart whose Hub the pods name', () => {
    const worker = compose.services.worker;
    expect(worker.command.at(-1)).toBe('--worker');
    expect(worker.image).toBe(compose.services['browserdeck-a'].image);
    expect(composeShape(compose, 'worker').isolation).toEqual(BUBBLEWRAP);
    const postgresImage = objectNamed(postgres, 'Deployment', 'browserdeck-postgres').spec.template.spec
      .containers[0].image;
    expect(compose.services.postgres.image).toBe(postgresImage);

    const hub = new URL(compose.services['browserdeck-a'].environment.SELENIUM_GRID_URL);
    expect(compose.services[hub.hostname].image).toMatch(/^selenium\/hub:/);
    const node = compose.services['selenium-node'];
    expect(node.image).toMatch(/^selenium\/node-chromium:/);
    expect(node.image.split(':')[1]).toBe(compose.services[hub.hostname].image.split(':')[1]);
    expect(node.environment.SE_EVENT_BUS_HOST).toBe(hub.hostname);
    // The chart names its Hub service `selenium-hub` for the release `selenium`.
    expect(chart).toMatchObject({
      name: 'selenium-grid',
      repo: 'https://www.selenium.dev/docker-selenium',
      releaseName: 'selenium',
    });
    const gridUrl = new URL(kubeShape(grid, 'browserdeck').values.SELENIUM_GRID_URL!);
    expect(gridUrl.host).toBe(hub.host);
  });

  it('puts both instances behind nginx with deploy/nginx/browserdeck.conf, its upstream rewritten', async () => {
    const proxy = compose.services.proxy;
    expect(proxy.depends_on['browserdeck-a'].condition).toBe('service_healthy');
    expect(proxy.depends_on['browserdeck-b'].condition).toBe('service_healthy');
    expect(proxy.volumes).toContain('./nginx/browserdeck.conf:/browserdeck.conf:ro');
    // The proxy's own command, on the real file, up to where it starts nginx.
    const out = join(scratch, 'default.conf');
    const script = (proxy.command.at(-1) as string)
      .split(' && exec ')[0]!
      .replace(' /browserdeck.conf', ` ${join(import.meta.dirname, '../deploy/nginx/browserdeck.conf')}`)
      .replace('/etc/nginx/conf.d/default.conf', out);
    await shell(script);
    const conf = readFileSync(out, 'utf8');
    const upstream = /upstream browserdeck \{([^}]*)\}/.exec(conf)?.[1] ?? '';
    expect(upstream).toMatch(/server browserdeck-a:3000; server browserdeck-b:3000;/);
    expect(upstream).not.toContain('127.0.0.1');
    expect(conf).not.toContain('[::]');
    expect(conf).toContain('proxy_set_header Upgrade $http_upgrade;');
  });
});

describe('deploy/kubernetes/overlays/local under podman kube play: PostgreSQL and two instances', () => {
  let cluster: TestCluster;
  let database: PlayedKube | undefined;
  let instances: PlayedKube | undefined;
  let graceSec = 30;
  const containerOf = (instance: TestInstance) =>
    instances!.containers.get(`browserdeck-${instance.name}/browserdeck`)!;

  beforeAll(async () => {
    await ensurePodman(log);
    await ensureBaseImage(log);
    log(`building ${IMAGE_TAG} from the Dockerfile on ${BASE_TAG} (cached after the first build)…`);
    await buildImage(IMAGE_TAG, scratch, log);
    log(`building ${POSTGRES_TAG} from Debian's postgresql-15…`);
    await buildPostgresImage(log);
    // For every podman call from here on (`kube play` takes no runtime, cgroup or ulimit flags).
    process.env.CONTAINERS_CONF = writeContainersConf(scratch);

    const ports = await distinctFreePorts(3);
    cluster = writeTestCluster(scratch, {
      keys: generateKeys(),
      image: IMAGE_TAG,
      postgresImage: POSTGRES_TAG,
      postgresPort: ports[0]!,
      instances: [
        { name: 'a', port: ports[1]! },
        { name: 'b', port: ports[2]! },
      ],
    });
    await podman(['volume', 'rm', '-f', 'browserdeck-postgres']).catch(() => {});
    database = await playKube(await kustomize(cluster.postgresDir), join(scratch, 'postgres.yaml'));
    await eventually('PostgreSQL accepts connections', () => acceptsConnections(ports[0]!), 120_000);

    const objects = await kustomize(cluster.instancesDir);
    graceSec = objectNamed(objects, 'Deployment', 'browserdeck-a').spec.template.spec
      .terminationGracePeriodSeconds;
    const started = Date.now();
    instances = await playKube(objects, join(scratch, 'instances.yaml'));
    await Promise.all(cluster.instances.map((instance) => ready(instance, containerOf(instance))));
    log(`both instances ready ${Date.now() - started} ms after kube play`);
  }, 40 * 60_000);

  afterAll(async () => {
    if (instances) await downKube(instances, graceSec);
    if (database) await downKube(database, 30);
    await podman(['volume', 'rm', '-f', 'browserdeck-postgres']).catch(() => {});
    delete process.env.CONTAINERS_CONF;
  }, 180_000);

  it('serves a session created on instance A through instance B: read, driven with Playwright, released', async () => {
    const [a, b] = cluster.instances as [TestInstance, TestInstance];
    expect(await containerLogs(containerOf(a))).toContain(
      'local provider: browsers run with isolation level bubblewrap',
    );
    const email = `cluster-${Date.now()}@example.com`;
    expect(
      (await callInstance(a, 'POST', '/v1/auth/signup', undefined, { email, password: PASSWORD })).status,
    ).toBe(201);
    // A token B issued is good on A: one JWT key for all.
    const signIn = await callInstance(b, 'POST', '/v1/auth/signin', undefined, { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    const token = signIn.body.access_token as string;
    const project = await callInstance(b, 'POST', '/v1/projects', token, { name: 'Cluster' });
    expect(project.status).toBe(201);
    const sessions = `/v1/local/projects/${project.body.id}/sessions`;

    const created = await callInstance(a, 'POST', sessions, token, {});
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect(created.body.connectUrl.startsWith(`ws://127.0.0.1:${a.port}/`)).toBe(true);

    const read = await callInstance(b, 'GET', `${sessions}/${id}`, token);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('RUNNING');
    expect(read.headers.get('x-sync-error')).toBeNull();

    const browser = await chromium.connectOverCDP(through(b, created.body.connectUrl));
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      expect(await page.evaluate(() => 1 + 1)).toBe(2);
      // The browser B relayed to is A's: it runs in A's container, and none in B's.
      expect(await browserProcesses(containerOf(a))).toBeGreaterThan(0);
      expect(await browserProcesses(containerOf(b)), await podman(['top', containerOf(b), 'args'])).toBe(0);
    } finally {
      await browser.close().catch(() => {});
    }

    const released = await callInstance(b, 'POST', `${sessions}/${id}:release`, token);
    expect(released.status).toBe(200);
    expect(released.body.status).toBe('COMPLETED');
    expect((await callInstance(a, 'GET', `${sessions}/${id}`, token)).body.status).toBe('COMPLETED');
  });

  it('stops each instance on SIGTERM within terminationGracePeriodSeconds: exit 0, not a kill', async () => {
    expect(graceSec).toBe(30);
    await podman(['pod', 'stop', '-t', String(graceSec), ...instances!.pods], (graceSec + 60) * 1000);
    for (const instance of cluster.instances) {
      const name = containerOf(instance);
      const logs = await containerLogs(name);
      expect((await podman(['inspect', '-f', '{{.State.ExitCode}}', name])).trim(), logs).toBe('0');
      expect(logs).toContain('"signal":"SIGTERM","graceSec":20');
      expect(logs).toContain('"msg":"stopped"');
    }
  });
});

/** Resolves once `/readyz` answers 200; fails after 3 minutes with the container's output. */
async function ready(instance: TestInstance, container: string): Promise<void> {
  try {
    await eventually(
      `instance ${instance.name} answers /readyz`,
      () =>
        fetch(`${instance.url}/readyz`).then(
          (r) => r.status === 200,
          () => false,
        ),
      180_000,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${await containerLogs(container).catch(() => '')}`);
  }
}

/** Whether something accepts TCP connections on the loopback `port`. */
function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => done(socket.destroy() !== undefined));
    socket.once('error', () => done(false));
  });
}

/** How many browsers run in `container` (`podman top`): Chromium as the local provider starts it. */
async function browserProcesses(container: string): Promise<number> {
  const processes = await podman(['top', container, 'args']);
  return processes.split('\n').filter((line) => line.includes('--remote-debugging-pipe')).length;
}

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** `sh -c script` on this host (the proxy's sed, on plain files). */
async function shell(script: string): Promise<void> {
  await promisify(execFile)('sh', ['-c', script]);
}
