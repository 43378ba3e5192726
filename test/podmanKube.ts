import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type KubeObject, toManifests } from './kustomize.ts';
import { buildOnBase, hostLimits, podman } from './podman.ts';

/** The PostgreSQL 15 stand-in for `postgres:15`, built from Debian's packages (test/postgresImage). */
export const POSTGRES_TAG = 'localhost/browserdeck-test-postgres:15';

/** The kinds podman 4.3's `kube play` acts on; it skips Services and PodDisruptionBudgets. */
const PLAYABLE = new Set(['Deployment', 'ConfigMap', 'PersistentVolumeClaim']);

/** Builds `POSTGRES_TAG` on the test's Debian base (cached in podman's store between runs). */
export async function buildPostgresImage(log: (line: string) => void): Promise<void> {
  await buildOnBase(POSTGRES_TAG, resolve(import.meta.dirname, 'postgresImage'), log);
}

/**
 * A `containers.conf` with what `PODMAN_RUN` passes as flags, for `kube play`, which takes none of
 * them: runc, the cgroupfs manager, and limits at most the host's hard ones. Point
 * `CONTAINERS_CONF` at it.
 */
export function writeContainersConf(folder: string): string {
  const { nofile, nproc } = hostLimits();
  const file = join(folder, 'containers.conf');
  writeFileSync(
    file,
    [
      '[containers]',
      `default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]`,
      '[engine]',
      'runtime = "runc"',
      'cgroup_manager = "cgroupfs"',
      '',
    ].join('\n'),
  );
  return file;
}

/** A played set of objects: its file, and the pods and containers podman made of its Deployments. */
export interface PlayedKube {
  readonly file: string;
  readonly pods: readonly string[];
  /** `<deployment>/<container>` → the podman container's name. */
  readonly containers: ReadonlyMap<string, string>;
}

/**
 * `podman kube play` of the objects it acts on (the rest are left out), written to `file`. A
 * Deployment `d` becomes the pod `d-pod-0`, its container `c` the container `d-pod-0-c`.
 */
export async function playKube(objects: readonly KubeObject[], file: string): Promise<PlayedKube> {
  const played = objects.filter((object) => PLAYABLE.has(object.kind));
  writeFileSync(file, toManifests(played));
  const deployments = played.filter((object) => object.kind === 'Deployment');
  const pods = deployments.map((deployment) => `${deployment.metadata.name}-pod-0`);
  const containers = new Map(
    deployments.flatMap((deployment) =>
      (deployment.spec.template.spec.containers as { name: string }[]).map(
        ({ name }) =>
          [`${deployment.metadata.name}/${name}`, `${deployment.metadata.name}-pod-0-${name}`] as const,
      ),
    ),
  );
  const result = { file, pods, containers };
  try {
    await podman(['kube', 'play', file], 300_000);
  } catch (error) {
    await downKube(result, 0);
    throw error;
  }
  return result;
}

/**
 * Stops the pods with `graceSec` before SIGKILL (`kube down` alone kills at once: podman 4.3
 * ignores `terminationGracePeriodSeconds`), then removes them. Never throws: it runs after failures.
 */
export async function downKube(played: PlayedKube, graceSec: number): Promise<void> {
  if (played.pods.length > 0)
    await podman(['pod', 'stop', '-t', String(graceSec), ...played.pods], (graceSec + 60) * 1000).catch(
      () => {},
    );
  await podman(['kube', 'down', played.file]).catch(() => {});
}
