import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';

const run = promisify(execFile);

/** One rendered Kubernetes object, as far as the tests read it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are read field by field, like JSON.
  spec?: any;
  data?: Record<string, string>;
}

/** Kustomize's major version the manifests need: components, `labels`, `patches` with targets. */
const KUSTOMIZE_MAJOR = 5;

/**
 * `kubectl kustomize <dir>` (kustomize built into kubectl; docs/adr/0034), offline, parsed. Fails,
 * never skips, without a kubectl whose kustomize is v5 or later.
 */
export async function kustomize(dir: string): Promise<KubeObject[]> {
  await requireKustomize();
  const { stdout } = await run('kubectl', ['kustomize', dir], { maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: { stderr?: string; message: string }) => {
      throw new Error(`kubectl kustomize ${dir} failed: ${error.stderr || error.message}`);
    },
  );
  return parseManifests(stdout);
}

/** The objects of a multi-document YAML stream. */
export function parseManifests(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((document) => document.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

/**
 * Objects as one multi-document YAML stream, e.g. for `podman kube play`. YAML 1.1 quoting: Go's
 * YAML readers take an unquoted `on` (LOCAL_ISOLATION) for a boolean.
 */
export function toManifests(objects: readonly KubeObject[]): string {
  return objects.map((object) => stringify(object, { version: '1.1' })).join('---\n');
}

/** The one object of `kind` named `name`; throws naming what there is instead. */
export function objectNamed(objects: readonly KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) {
    const names = objects.map((object) => `${object.kind}/${object.metadata.name}`).join(', ');
    throw new Error(`no ${kind}/${name} in the rendered output (${names})`);
  }
  return found;
}

let checked: Promise<void> | undefined;

function requireKustomize(): Promise<void> {
  checked ??= run('kubectl', ['version', '--client', '--output=json']).then(
    ({ stdout }) => {
      const version = (JSON.parse(stdout) as { kustomizeVersion?: string }).kustomizeVersion ?? '';
      const major = Number(/^v?(\d+)\./.exec(version)?.[1] ?? 0);
      if (major < KUSTOMIZE_MAJOR)
        throw new Error(
          `kubectl's kustomize is ${version || 'unknown'}; the manifests need v${KUSTOMIZE_MAJOR} or later (docs/adr/0034)`,
        );
    },
    () => {
      throw new Error('kubectl is needed to render deploy/kubernetes (kubectl kustomize; docs/adr/0034)');
    },
  );
  return checked;
}
