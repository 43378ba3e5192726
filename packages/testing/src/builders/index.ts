export { type AgentOverrides, anAgent } from './anAgent.ts';
export { anAgentFields } from './anAgentFields.ts';
export { type ApiKeyOverrides, anApiKey } from './anApiKey.ts';
export { anExtension, type ExtensionOverrides } from './anExtension.ts';
export { aProject, type ProjectOverrides } from './aProject.ts';
export { aRun, type RunOverrides } from './aRun.ts';
export { aSession, type SessionOverrides } from './aSession.ts';
export { aUser, type UserOverrides } from './aUser.ts';
export { BUILT_AT, BUILT_OWNER_ID, BUILT_PROJECT_ID } from './builderDefaults.ts';
