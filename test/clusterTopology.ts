import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { type KubeObject, objectNamed } from './kustomize.ts';

/** deploy/compose.yaml, parsed with its `<<` merge keys applied, as Compose reads it. */
// biome-ignore lint/suspicious/noExplicitAny: a Compose file is read field by field, like JSON.
export function readCompose(): any {
  return parse(readFileSync(resolve(import.meta.dirname, '../deploy/compose.yaml'), 'utf8'), { merge: true });
}

/**
 * What makes a process one of the cluster's instances, in terms both recipes can be compared in:
 * the variables it is given (names, and the values that must agree), its probes, its stop grace,
 * and the container settings of its isolation level.
 */
export interface InstanceShape {
  readonly variables: readonly string[];
  readonly values: Readonly<Record<string, string | undefined>>;
  readonly readyPath: string | undefined;
  readonly stopGraceSec: number;
  readonly isolation: readonly string[];
}

/** Variables whose values both recipes must give alike. */
const SHARED_VALUES = ['BROWSER_PROVIDER', 'SELENIUM_GRID_URL', 'TRUST_PROXY', 'SHUTDOWN_GRACE_SEC'];

/** The shape of the Compose service `name` (the keys of `env_file` are SECRET_KEY and JWT_PRIVATE_KEY). */
// biome-ignore lint/suspicious/noExplicitAny: see readCompose.
export function composeShape(compose: any, name: string): InstanceShape {
  const service = compose.services[name];
  const environment = service.environment as Record<string, string>;
  const fromFile = [service.env_file].flat().includes('.env') ? ['SECRET_KEY', 'JWT_PRIVATE_KEY'] : [];
  const options = (service.security_opt ?? []) as string[];
  return {
    variables: [...Object.keys(environment), ...fromFile].sort(),
    values: pick(environment),
    readyPath: /\/readyz\b/.exec([service.healthcheck?.test].flat().join(' '))?.[0],
    stopGraceSec: Number(/^(\d+)s$/.exec(String(service.stop_grace_period))?.[1]),
    isolation: [
      ...((service.cap_add ?? []) as string[]).map((cap) => `cap:${cap}`),
      ...(options.includes('seccomp=unconfined') ? ['seccomp:unconfined'] : []),
      ...(options.includes('apparmor=unconfined') ? ['apparmor:unconfined'] : []),
      ...(options.includes('systempaths=unconfined') ? ['proc:unmasked'] : []),
    ].sort(),
  };
}

/** The shape of the Deployment `name`'s first container, with its ConfigMap and Secret resolved. */
export function kubeShape(objects: readonly KubeObject[], name: string): InstanceShape {
  const pod = objectNamed(objects, 'Deployment', name).spec.template.spec;
  const container = pod.containers[0];
  const fromRefs = (container.envFrom ?? []).flatMap(
    (ref: { configMapRef?: { name: string }; secretRef?: { name: string } }) => {
      const source = ref.configMapRef
        ? objectNamed(objects, 'ConfigMap', ref.configMapRef.name)
        : objectNamed(objects, 'Secret', ref.secretRef!.name);
      return Object.entries(source.data ?? {}).map(([key, value]) =>
        source.kind === 'Secret' ? [key, Buffer.from(value, 'base64').toString()] : [key, value],
      );
    },
  ) as [string, string][];
  // POD_IP only feeds INSTANCE_URL ($(POD_IP)); Compose names the service instead.
  const env = (container.env ?? []).filter((entry: { name: string }) => entry.name !== 'POD_IP');
  const values = Object.fromEntries([
    ...fromRefs,
    ...env.map((entry: { name: string; value?: string }) => [entry.name, entry.value]),
  ]);
  const security = container.securityContext ?? {};
  return {
    variables: Object.keys(values).sort(),
    values: pick(values),
    readyPath: container.readinessProbe?.httpGet?.path,
    stopGraceSec: pod.terminationGracePeriodSeconds,
    isolation: [
      ...((security.capabilities?.add ?? []) as string[]).map((cap) => `cap:${cap}`),
      ...(pod.securityContext?.seccompProfile?.type === 'Unconfined' ? ['seccomp:unconfined'] : []),
      ...(pod.securityContext?.appArmorProfile?.type === 'Unconfined' ? ['apparmor:unconfined'] : []),
      ...(security.procMount === 'Unmasked' ? ['proc:unmasked'] : []),
    ].sort(),
  };
}

function pick(values: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(SHARED_VALUES.map((key) => [key, values[key]]));
}
