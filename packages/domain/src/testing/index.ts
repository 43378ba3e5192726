export { cloneEntity } from './cloneEntity.ts';
export {
  describeIdentityProviderContract,
  type IdentityProviderFixture,
} from './describeIdentityProviderContract.ts';
export {
  describeProjectRepositoryContract,
  type ProjectRepositoryFixture,
} from './describeProjectRepositoryContract.ts';
export { describeUserRepositoryContract } from './describeUserRepositoryContract.ts';
export { FakeBrowserProvider, type FakeProviderCall } from './FakeBrowserProvider.ts';
export { InMemoryAgentRepository } from './InMemoryAgentRepository.ts';
export { InMemoryIdempotencyStore } from './InMemoryIdempotencyStore.ts';
export { InMemoryIdentityProvider } from './InMemoryIdentityProvider.ts';
export { InMemoryProjectRepository } from './InMemoryProjectRepository.ts';
export { InMemorySessionRepository } from './InMemorySessionRepository.ts';
export { InMemoryUserRepository } from './InMemoryUserRepository.ts';
export { ManualClock } from './ManualClock.ts';
export { SequentialIdGenerator } from './SequentialIdGenerator.ts';
