import type { ExtensionsChromium } from '../../extensions/ExtensionsChromium.ts';
import type { SessionFeature } from '../SessionFeature.ts';

/**
 * Extensions: a session naming one needs the full Chromium build (located before any slot is taken;
 * `unsupported_option` / `provider_unavailable` when it cannot run) and runs cold, launched with the
 * extension unpacked.
 */
export function extensionsFeature(build: Pick<ExtensionsChromium, 'locate'>): SessionFeature {
  return {
    name: 'extensions',
    async prepare(request) {
      if (!request.extension) return {};
      await build.locate();
      return { warmFits: false, extension: request.extension };
    },
  };
}
