export { assertProblem } from '../http/koa/testing/assertProblem.ts';
export * from '../http/koa/testing/createTestApp.ts';
export {
  type AuthContractOptions,
  type AuthContractWorld,
  describeAuthContract,
} from '../http/koa/testing/describeAuthContract.ts';
export {
  describeLocalIdentityStoreContract,
  type LocalIdentityStoreFixture,
} from '../identity/local/describeLocalIdentityStoreContract.ts';
export {
  describeIssuedRefreshTokenStoreContract,
  type IssuedRefreshTokenStoreContractOptions,
  type IssuedRefreshTokenStoreFixture,
} from '../identity/supabase/describeIssuedRefreshTokenStoreContract.ts';
export {
  describeRevokedSessionStoreContract,
  type RevokedSessionStoreContractOptions,
  type RevokedSessionStoreFixture,
} from '../identity/supabase/describeRevokedSessionStoreContract.ts';
