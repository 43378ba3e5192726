export { NodeApiKeySecrets } from './NodeApiKeySecrets.ts';
export {
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
  type PrivateDirReport,
  securePrivateDir,
} from './securePrivateDir.ts';
export { UuidV7Generator } from './UuidV7Generator.ts';
