/**
 * A handler answered outside its route's declared contract (a status it does not declare, or a body
 * its schema refuses), found by `HttpSettings.validateResponses`. Unlike other unexpected errors, its
 * message is shown in the 500 problem's `detail`: it names code, not data, and only tests turn it on.
 */
export class ResponseContractError extends Error {
  override readonly name = 'ResponseContractError';
}
