import { SUPPORTED_NODE_RANGE, unsupportedNodeMessage } from './unsupportedNodeMessage.ts';

/**
 * Imported first by the package's entry, so it runs before any adapter loads: on a Node below
 * `engines` the import fails with one sentence (versions and the fix) instead of a segmentation
 * fault later, when the SQLite driver's prebuilt binary is opened on Node 20.
 */
const message = unsupportedNodeMessage(
  '@browserdeck/adapters',
  process.versions.node,
  SUPPORTED_NODE_RANGE,
  process.execPath,
);
if (message) {
  const error = new Error(message);
  error.name = 'UnsupportedNodeVersion';
  // The stack would only point here; the sentence is the whole story.
  error.stack = `${error.name}: ${message}`;
  throw error;
}
