import type { ProviderSessions } from '@browserdeck/domain';
import type { AdapterCapabilities, ComposableBrowserProvider } from './ProviderCapabilities.ts';

/** How a wrapper runs one call of a wrapped object: `call` runs it, with `args`, on the object itself. */
export type MethodWrapper = (method: string, args: unknown[], call: () => unknown) => unknown;

/**
 * `target` with every method call passed through `wrap` (which decides whether and how to run it):
 * its other members read through unchanged. Generic over the object, so a method added to a
 * capability is wrapped without editing the wrapper. The method runs on `target` itself (its own
 * `this`, private fields included).
 */
export function wrapMethods<T extends object>(target: T, wrap: MethodWrapper): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'constructor') return value;
      return (...args: unknown[]) =>
        wrap(key, args, () => (value as (...a: unknown[]) => unknown).apply(object, args));
    },
  });
}

/**
 * `capabilities` with the ones `wrappers` names wrapped (`wrapMethods`); the others, and any a
 * provider has that no wrapper names, pass through as they are.
 */
export function wrapCapabilities<C extends object>(
  capabilities: C,
  wrappers: Readonly<Record<string, MethodWrapper | undefined>>,
): C {
  const wrapped: Record<string, unknown> = { ...(capabilities as Record<string, unknown>) };
  for (const [name, capability] of Object.entries(capabilities)) {
    const wrapper = wrappers[name];
    if (wrapper && capability && typeof capability === 'object')
      wrapped[name] = wrapMethods(capability, wrapper);
  }
  return wrapped as C;
}

/**
 * `read()` wrapped by `wrap`, wrapped again only when `read()` answers another object than last
 * time: a provider whose capabilities change (a test's fake) is seen as it is now, one whose
 * capabilities object stays (every real provider) is wrapped once.
 */
export function rewrapWhenChanged<C extends object>(read: () => C, wrap: (capabilities: C) => C): () => C {
  let last: C | undefined;
  let wrapped: C | undefined;
  return () => {
    const current = read();
    if (current !== last || wrapped === undefined) {
      last = current;
      wrapped = wrap(current);
    }
    return wrapped;
  };
}

/** How a `WrappingProvider` wraps the provider it is made over. */
export interface ProviderWrappers {
  /** Runs every call of the provider's `sessions`. */
  readonly sessions: MethodWrapper;
  /** Runs every call of the capabilities it names (`wrapCapabilities`). */
  readonly capabilities: Readonly<Record<string, MethodWrapper | undefined>>;
  /** Edits the wrapped capabilities (each time the provider's capabilities object changes). */
  readonly adjust?: ((capabilities: AdapterCapabilities) => AdapterCapabilities) | undefined;
}

/**
 * A provider made over another, wrapping its calls generically: its name, regions and default
 * project are the inner provider's, its `sessions` and named capabilities the inner ones with every
 * method passed through the wrappers (the instrumented and the instance-routed providers).
 */
export class WrappingProvider implements ComposableBrowserProvider {
  readonly name: string;
  readonly regions: readonly string[];
  readonly defaultProviderProjectId: string;
  readonly sessions: ProviderSessions;
  private readonly wrapped: () => AdapterCapabilities;

  constructor(provider: ComposableBrowserProvider, wrappers: ProviderWrappers) {
    this.name = provider.name;
    this.regions = provider.regions;
    this.defaultProviderProjectId = provider.defaultProviderProjectId;
    this.sessions = wrapMethods(provider.sessions, wrappers.sessions);
    const adjust = wrappers.adjust ?? ((capabilities: AdapterCapabilities) => capabilities);
    this.wrapped = rewrapWhenChanged(
      () => provider.capabilities,
      (capabilities) => adjust(wrapCapabilities(capabilities, wrappers.capabilities)),
    );
  }

  get capabilities(): AdapterCapabilities {
    return this.wrapped();
  }
}
