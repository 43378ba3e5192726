export * from './http/assertProblem.ts';
export * from './http/createTestApp.ts';
export * from './http/describeAuthContract.ts';
export * from './http/FakeLiveViewHub.ts';
export * from './http/ManualRecheckTimer.ts';
export * from './identity/describeIssuedRefreshTokenStoreContract.ts';
export * from './identity/describeLocalIdentityStoreContract.ts';
export * from './identity/describeRevokedSessionStoreContract.ts';
