export { AWKWARD_NAME, AWKWARD_OPAQUE, AWKWARD_TEXT } from './awkwardText.ts';
export { browserRequest } from './browserRequest.ts';
export { cloneEntity } from './cloneEntity.ts';
export {
  type AgentRepositoryFixture,
  describeAgentRepositoryContract,
} from './describeAgentRepositoryContract.ts';
export {
  type ApiKeyRepositoryFixture,
  describeApiKeyRepositoryContract,
} from './describeApiKeyRepositoryContract.ts';
export { type AuditLogFixture, describeAuditLogContract } from './describeAuditLogContract.ts';
export {
  type BrowserContextStoreFixture,
  describeBrowserContextStoreContract,
} from './describeBrowserContextStoreContract.ts';
export {
  type BrowserProviderFixture,
  describeBrowserProviderContract,
} from './describeBrowserProviderContract.ts';
export {
  describeExtensionRepositoryContract,
  type ExtensionRepositoryFixture,
} from './describeExtensionRepositoryContract.ts';
export { describeFilesContract } from './describeFilesContract.ts';
export {
  describeIdempotencyStoreContract,
  type IdempotencyStoreFixture,
} from './describeIdempotencyStoreContract.ts';
export {
  describeIdentityProviderContract,
  type IdentityProviderFixture,
} from './describeIdentityProviderContract.ts';
export {
  describeInvitationRepositoryContract,
  type InvitationRepositoryFixture,
} from './describeInvitationRepositoryContract.ts';
export {
  describeMemberRepositoryContract,
  type MemberRepositoryFixture,
} from './describeMemberRepositoryContract.ts';
export { describePlacementContract } from './describePlacementContract.ts';
export {
  describeProjectRepositoryContract,
  type ProjectRepositoryFixture,
} from './describeProjectRepositoryContract.ts';
export { describeProviderSessionsContract } from './describeProviderSessionsContract.ts';
export { describeRateLimiterContract, type RateLimiterFixture } from './describeRateLimiterContract.ts';
export { describeRunLogStoreContract, type RunLogStoreFixture } from './describeRunLogStoreContract.ts';
export { describeRunRepositoryContract, type RunRepositoryFixture } from './describeRunRepositoryContract.ts';
export {
  describeSessionRepositoryContract,
  type SessionRepositoryFixture,
} from './describeSessionRepositoryContract.ts';
export { describeUsageContract, type UsageFixture } from './describeUsageContract.ts';
export { describeUserRepositoryContract } from './describeUserRepositoryContract.ts';
export { FakeApiKeySecrets } from './FakeApiKeySecrets.ts';
export { FakeBrowserProvider, type FakeProviderCall } from './FakeBrowserProvider.ts';
export { type FakeScriptLine, type FakeScriptPlay, FakeScriptRunner } from './FakeScriptRunner.ts';
export { givenRunWorld } from './givenRunWorld.ts';
export { givenSessionWorld } from './givenSessionWorld.ts';
export { givenTwoInstances } from './givenTwoInstances.ts';
export { InMemoryAgentRepository } from './InMemoryAgentRepository.ts';
export { InMemoryApiKeyRepository } from './InMemoryApiKeyRepository.ts';
export { InMemoryAuditLog } from './InMemoryAuditLog.ts';
export { InMemoryBrowserContextStore } from './InMemoryBrowserContextStore.ts';
export { InMemoryExtensionRepository } from './InMemoryExtensionRepository.ts';
export { InMemoryIdempotencyStore } from './InMemoryIdempotencyStore.ts';
export { InMemoryIdentityProvider } from './InMemoryIdentityProvider.ts';
export { InMemoryInvitationRepository } from './InMemoryInvitationRepository.ts';
export { InMemoryMemberRepository } from './InMemoryMemberRepository.ts';
export { InMemoryProjectRepository, type StoredMembership } from './InMemoryProjectRepository.ts';
export { InMemoryRunChanges } from './InMemoryRunChanges.ts';
export { InMemoryRunLogStore } from './InMemoryRunLogStore.ts';
export { type EnqueuedRun, InMemoryRunQueue } from './InMemoryRunQueue.ts';
export { InMemoryRunRepository } from './InMemoryRunRepository.ts';
export { InMemorySessionRepository } from './InMemorySessionRepository.ts';
export { InMemoryUsageRepository, type InMemoryUsageRepositoryDeps } from './InMemoryUsageRepository.ts';
export { InMemoryUserRepository } from './InMemoryUserRepository.ts';
export { ManualClock } from './ManualClock.ts';
export { ManualTimers } from './ManualTimers.ts';
export { providerWithoutFiles } from './providerWithoutFiles.ts';
export { RunEndingDuringRead } from './RunEndingDuringRead.ts';
export { SequentialIdGenerator } from './SequentialIdGenerator.ts';
