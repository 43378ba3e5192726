import type { EntityState } from '../shared/EntityState.ts';
import { writable } from '../shared/writable.ts';

/** An extension's stored fields: what `Extension.restore` takes. */
export type ExtensionState = EntityState<Extension>;

/**
 * A browser extension uploaded to a project (http-api.md §5, §13): a zip with `manifest.json` at its
 * root, checked at upload. The zip itself is kept by `ExtensionRepository` beside this record, and
 * read only when a session loads it.
 */
export class Extension {
  readonly id!: string;
  readonly projectId!: string;
  /** The manifest's `name` (possibly a `__MSG_…__` key). */
  readonly name!: string;
  /** The uploaded file's name, as the client sent it (base name only). */
  readonly fileName!: string;
  /** The zip's size in bytes. */
  readonly size!: number;
  /** The provider's own id for it, when the provider keeps extensions itself (Browserbase); else null. */
  readonly providerExtensionId!: string | null;
  readonly createdAt!: Date;

  private constructor() {}

  /** A new extension; the caller has checked the zip (`ExtensionArchiveInspector`). */
  static create(props: {
    id: string;
    projectId: string;
    name: string;
    fileName: string;
    size: number;
    providerExtensionId: string | null;
    now: Date;
  }): Extension {
    const { now, ...fields } = props;
    return Object.assign(new Extension(), { ...fields, createdAt: now });
  }

  /** For repositories: the extension `state` holds, as it was stored. */
  static restore(state: ExtensionState): Extension {
    return Object.assign(new Extension(), state);
  }

  /** Records the id the provider gave it when it was uploaded there later (on first use). */
  storedAtProvider(providerExtensionId: string): void {
    writable(this).providerExtensionId = providerExtensionId;
  }
}
