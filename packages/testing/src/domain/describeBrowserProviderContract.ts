import { describeFilesContract } from './describeFilesContract.ts';
import { describePlacementContract } from './describePlacementContract.ts';
import { describeProviderSessionsContract } from './describeProviderSessionsContract.ts';
import type { BrowserProviderFixture } from './providerContractFixture.ts';

export type { BrowserProviderFixture } from './providerContractFixture.ts';

/**
 * Every contract a provider's port answers to, one suite per part: its `sessions` core, its
 * `placement` (present or not), and, with `files: true`, its `files` capability. Browsers a test
 * created are released afterwards.
 */
export function describeBrowserProviderContract(
  name: string,
  options: { create: () => Promise<BrowserProviderFixture>; files?: boolean },
): void {
  describeProviderSessionsContract(name, options);
  describePlacementContract(name, options);
  if (options.files) describeFilesContract(name, options);
}
