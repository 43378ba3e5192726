/**
 * The stored state of an entity class `T`: its data properties, without its methods and without the
 * getters named in `Computed` (values derived from the state). What a repository hands to the
 * class's static `restore(state)`.
 */
export type EntityState<T, Computed extends keyof T = never> = {
  readonly [K in keyof T as K extends Computed
    ? never
    : T[K] extends (...args: never[]) => unknown
      ? never
      : K]: T[K];
};
