export {
  type LoadedSecretKey,
  loadOrCreateSecretKey,
  SECRET_KEY_FILE_NAME,
  type SecretKeySource,
} from './loadOrCreateSecretKey.ts';
export { decodeSecretKey, parseSecretKey } from './parseSecretKey.ts';
export { SECRET_KEY_BYTES, SecretBox } from './SecretBox.ts';
export { SecretBoxError } from './SecretBoxError.ts';
