import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';

const KUBERNETES = resolve(import.meta.dirname, '../deploy/kubernetes');

/** One Browserdeck instance of the test cluster: its name (`a`, `b`), port, URL and data folder. */
export interface TestInstance {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  readonly dataDir: string;
}

/** Where the test overlay was written, and what it set. */
export interface TestCluster {
  /** The kustomization of the PostgreSQL pod (deploy/kubernetes/postgres, patched). */
  readonly postgresDir: string;
  /** The kustomization of the instances: overlays/local twice, patched per instance. */
  readonly instancesDir: string;
  readonly databaseUrl: string;
  readonly instances: readonly TestInstance[];
}

/**
 * Copies deploy/kubernetes into `scratch` as an operator's checkout would have it (with the
 * git-ignored `base/secrets.env` and `postgres/postgres.env` written), and adds a test overlay on
 * top of `overlays/local` and `postgres` that changes only what podman 4.3's `kube play` cannot do
 * or what one host needs: the locally built images, one single-replica Deployment per instance on
 * the host's network (distinct ports, explicit instance URLs in place of the pod IP, no
 * published ports), the Secrets as ConfigMaps, `privileged` in place of `procMount: Unmasked`,
 * no HTTP probes (the test polls `/readyz`), and a data folder per instance.
 */
export function writeTestCluster(
  scratch: string,
  options: {
    keys: string;
    image: string;
    postgresImage: string;
    postgresPort: number;
    instances: readonly { name: string; port: number }[];
  },
): TestCluster {
  const password = `pw${process.pid}x${Date.now()}`;
  const databaseUrl = `postgres://browserdeck:${password}@127.0.0.1:${options.postgresPort}/browserdeck`;
  const secrets = `${options.keys.trimEnd()}\nDATABASE_URL=${databaseUrl}\n`;
  const root = copyKubernetes(scratch, { secrets, password });

  const postgresDir = join(root, 'test/postgres');
  writeKustomization(postgresDir, {
    resources: ['../../postgres'],
    images: [imageOf('postgres', options.postgresImage)],
    configMapGenerator: [{ name: 'browserdeck-test-postgres', envs: ['postgres.env'] }],
    patches: [deploymentPatch('browserdeck-postgres', postgresOps(options.postgresPort))],
  });
  writeFileSync(join(postgresDir, 'postgres.env'), `POSTGRES_PASSWORD=${password}\n`, { mode: 0o600 });

  const instances = options.instances.map(({ name, port }) => {
    const url = `http://127.0.0.1:${port}`;
    const dataDir = join(scratch, `data-${name}`);
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const dir = join(root, `test/instance-${name}`);
    writeKustomization(dir, {
      resources: ['../../overlays/local'],
      nameSuffix: `-${name}`,
      images: [imageOf('browserdeck', options.image)],
      configMapGenerator: [
        // podman 4.3 lets envFrom win over env (Kubernetes: the other way round), so what differs
        // per instance goes into the settings, in place of the downward API it lacks.
        {
          name: 'browserdeck-settings',
          behavior: 'merge',
          literals: Object.entries({
            HOST: '127.0.0.1',
            PORT: String(port),
            PUBLIC_URL: url,
            INSTANCE_URL: url,
            LOCAL_INSTANCE_ID: `cluster-${name}`,
            // Both on one host network: a metrics port each, picked by the system.
            METRICS_LISTEN: '127.0.0.1:0',
            LOCAL_WARM_BROWSERS: '0',
            LOCAL_MAX_SESSIONS: '2',
          }).map(([key, value]) => `${key}=${value}`),
        },
        { name: 'browserdeck-test-secrets', envs: ['secrets.env'] },
      ],
      patches: [deploymentPatch('browserdeck', instanceOps(dataDir))],
    });
    writeFileSync(join(dir, 'secrets.env'), secrets, { mode: 0o600 });
    return { name, port, url, dataDir };
  });
  const instancesDir = join(root, 'test/instances');
  writeKustomization(instancesDir, { resources: instances.map(({ name }) => `../instance-${name}`) });
  return { postgresDir, instancesDir, databaseUrl, instances };
}

/**
 * deploy/kubernetes copied to `<scratch>/kubernetes` with the two files an operator writes before
 * applying it: `base/secrets.env` (`secrets`: `npm run keys`' lines and DATABASE_URL) and
 * `postgres/postgres.env`. Returns the copy's folder.
 */
export function copyKubernetes(scratch: string, files: { secrets: string; password: string }): string {
  const root = join(scratch, 'kubernetes');
  cpSync(KUBERNETES, root, { recursive: true });
  writeFileSync(join(root, 'base/secrets.env'), files.secrets, { mode: 0o600 });
  writeFileSync(join(root, 'postgres/postgres.env'), `POSTGRES_PASSWORD=${files.password}\n`, {
    mode: 0o600,
  });
  return root;
}

type Op = { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown };

const CONTAINER = '/spec/template/spec/containers/0';

function instanceOps(dataDir: string): Op[] {
  return [
    ...hostPodOps(),
    { op: 'remove', path: '/spec/template/spec/hostUsers' },
    { op: 'remove', path: '/spec/template/spec/securityContext' },
    // podman takes seccomp only from this annotation, and unmasks /proc only for a privileged container.
    {
      op: 'add',
      path: '/spec/template/metadata/annotations',
      value: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' },
    },
    { op: 'replace', path: `${CONTAINER}/securityContext`, value: { privileged: true } },
    { op: 'remove', path: `${CONTAINER}/startupProbe` },
    { op: 'remove', path: `${CONTAINER}/livenessProbe` },
    { op: 'remove', path: `${CONTAINER}/readinessProbe` },
    {
      op: 'replace',
      path: `${CONTAINER}/envFrom`,
      value: [
        { configMapRef: { name: 'browserdeck-settings' } },
        { configMapRef: { name: 'browserdeck-test-secrets' } },
      ],
    },
    { op: 'remove', path: `${CONTAINER}/env` },
    // podman makes one named volume `data` of every emptyDir of that name: a folder each instead.
    {
      op: 'replace',
      path: '/spec/template/spec/volumes/0',
      value: { name: 'data', hostPath: { path: dataDir, type: 'Directory' } },
    },
  ];
}

function postgresOps(port: number): Op[] {
  return [
    ...hostPodOps(),
    { op: 'remove', path: `${CONTAINER}/readinessProbe` },
    {
      op: 'replace',
      path: `${CONTAINER}/envFrom`,
      value: [{ configMapRef: { name: 'browserdeck-test-postgres' } }],
    },
    { op: 'add', path: `${CONTAINER}/env/-`, value: { name: 'PGPORT', value: String(port) } },
    { op: 'add', path: `${CONTAINER}/args`, value: ['-c', 'listen_addresses=127.0.0.1'] },
  ];
}

/** One pod, on the host's network (loopback only), nothing published, images from the local store. */
function hostPodOps(): Op[] {
  return [
    { op: 'replace', path: '/spec/replicas', value: 1 },
    { op: 'add', path: '/spec/template/spec/hostNetwork', value: true },
    { op: 'remove', path: `${CONTAINER}/ports` },
    { op: 'add', path: `${CONTAINER}/imagePullPolicy`, value: 'Never' },
  ];
}

function deploymentPatch(name: string, ops: Op[]) {
  return { target: { kind: 'Deployment', name }, patch: stringify(ops) };
}

function imageOf(name: string, image: string) {
  const at = image.lastIndexOf(':');
  return { name, newName: image.slice(0, at), newTag: image.slice(at + 1) };
}

function writeKustomization(dir: string, body: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  const kustomization = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', ...body };
  writeFileSync(join(dir, 'kustomization.yaml'), stringify(kustomization));
}
