import { z } from 'zod';
import { MultipartFile } from '../readMultipartFile.ts';

/** A route's file upload: the multipart field it comes in, its size limit, and what it is for people. */
export interface FileBodySpec {
  /** The `multipart/form-data` field holding the file. */
  readonly field: string;
  /** Its largest size in bytes (`payload_too_large` past it). */
  readonly maxBytes: number;
  /** What the file is, for the OpenAPI document. */
  readonly description: string;
}

const SPECS = new WeakMap<z.ZodType, FileBodySpec>();

/**
 * A route `body` that is one uploaded file instead of JSON: the router reads the request with
 * `readMultipartFile` (not the JSON parser), hands the handler the `MultipartFile` as `body`, and
 * drops what the handler left unread once it is done; the OpenAPI document shows a
 * `multipart/form-data` body with a binary `field`.
 */
export function fileBody(spec: FileBodySpec): z.ZodType<MultipartFile> {
  const schema = z.instanceof(MultipartFile);
  SPECS.set(schema, spec);
  return schema;
}

/** The file upload a route's `body` declares (`fileBody`), or undefined for a JSON body or none. */
export function fileBodySpec(body: z.ZodType | undefined): FileBodySpec | undefined {
  return body ? SPECS.get(body) : undefined;
}
