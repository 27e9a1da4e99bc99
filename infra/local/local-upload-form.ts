/**
 * The local runtime's presigned upload: the same HTML form as an S3 presigned POST (a base64
 * JSON `Policy` of an expiration and conditions, the key and Content-Type as fields) signed with
 * an HMAC of the local storage's secret instead of SigV4, and the check the local upload route
 * runs on a posted form before it stores anything: signature, expiry, every condition (exact key,
 * exact Content-Type, content-length-range), no field the policy does not name. No local S3
 * emulator enforces POST policies (s3rver accepts a forged signature and any size: measured), so
 * this does, with S3's answers: 403 AccessDenied / SignatureDoesNotMatch, 400 EntityTooLarge /
 * EntityTooSmall / MalformedPOSTRequest.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PresignedUpload, UploadPolicy } from '../../shared/ports/media-storage.js';

/** The signature's form field (S3's is X-Amz-Signature, over the same base64 policy). */
export const SIGNATURE_FIELD = 'X-Local-Signature';

/** A form entry's value as `Request.formData()` gives it: a text field or a file. */
export type FormValue = string | Blob;

type Condition =
  Record<string, string> | ['content-length-range', number, number] | ['eq' | 'starts-with', string, string];

interface PolicyDocument {
  expiration: string;
  conditions: Condition[];
}

/** Form fields S3 does not look for in the policy: the file, the policy, its signature, x-ignore-*. */
const UNCONDITIONED = new Set(['file', 'policy', SIGNATURE_FIELD.toLowerCase()]);

const sign = (secret: Buffer, policy: string) => createHmac('sha256', secret).update(policy).digest('hex');

/** S3's presigned POST, the local way: same fields and policy, an HMAC signature. */
export function signUploadForm(url: string, secret: Buffer, policy: UploadPolicy): PresignedUpload {
  const document: PolicyDocument = {
    expiration: policy.expiresAt.toISOString(),
    conditions: [
      { key: policy.key },
      { 'Content-Type': policy.contentType },
      ['content-length-range', 1, policy.maxBytes],
    ],
  };
  const encoded = Buffer.from(JSON.stringify(document)).toString('base64');
  return {
    url,
    fields: {
      key: policy.key,
      'Content-Type': policy.contentType,
      Policy: encoded,
      [SIGNATURE_FIELD]: sign(secret, encoded),
    },
    expiresAt: policy.expiresAt,
  };
}

/** A refusal, as S3 answers it. */
export interface UploadRefusal {
  ok: false;
  status: 400 | 403;
  code: string;
  message: string;
}

export interface AcceptedUpload {
  ok: true;
  key: string;
  contentType: string;
  body: Buffer;
}

const refuse = (status: 400 | 403, code: string, message: string): UploadRefusal => ({
  ok: false,
  status,
  code,
  message,
});
const policyFailed = (detail: string) => refuse(403, 'AccessDenied', `Invalid according to Policy: ${detail}`);

const signatureMatches = (secret: Buffer, policy: string, signature: string): boolean => {
  const expected = Buffer.from(sign(secret, policy));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

function parsePolicy(encoded: string): PolicyDocument | undefined {
  try {
    const document = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as PolicyDocument;
    return typeof document.expiration === 'string' && Array.isArray(document.conditions) ? document : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a posted form (its entries in order) against its signed policy at `now`. As S3 does,
 * fields after the file are ignored and field names compare case-insensitively; values exactly.
 */
export async function checkUploadForm(
  entries: Iterable<[string, FormValue]>,
  secret: Buffer,
  now: Date,
): Promise<AcceptedUpload | UploadRefusal> {
  const fields = new Map<string, string>();
  let file: Blob | undefined;
  for (const [name, value] of entries) {
    if (name.toLowerCase() === 'file') {
      file = typeof value === 'string' ? new Blob([value]) : value;
      break;
    }
    if (typeof value === 'string') fields.set(name.toLowerCase(), value);
  }
  if (!file) return refuse(400, 'MalformedPOSTRequest', 'The form has no file field (it must be the last field).');
  const key = fields.get('key');
  if (!key) return refuse(400, 'InvalidArgument', "Bucket POST must contain a field named 'key'.");

  const encoded = fields.get('policy');
  const signature = fields.get(SIGNATURE_FIELD.toLowerCase());
  if (!encoded || !signature) return refuse(403, 'AccessDenied', 'The form has no Policy or no signature.');
  if (!signatureMatches(secret, encoded, signature))
    return refuse(403, 'SignatureDoesNotMatch', 'The request signature does not match the policy.');
  const policy = parsePolicy(encoded);
  if (!policy) return refuse(400, 'MalformedPOSTRequest', 'The policy is not valid JSON.');
  if (!(Date.parse(policy.expiration) > now.getTime())) return policyFailed('Policy expired.');

  const conditioned = new Set<string>();
  for (const condition of policy.conditions) {
    if (Array.isArray(condition)) {
      const [operator, first, second] = condition;
      if (operator === 'content-length-range') {
        if (file.size > second)
          return refuse(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.');
        if (file.size < first)
          return refuse(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size.');
        continue;
      }
      const name = first.replace(/^\$/, '').toLowerCase();
      conditioned.add(name);
      const value = fields.get(name) ?? '';
      if (operator === 'eq' ? value !== second : !value.startsWith(second))
        return policyFailed(`Policy Condition failed: ["${operator}", "$${name}", "${second}"]`);
      continue;
    }
    for (const [field, expected] of Object.entries(condition)) {
      const name = field.toLowerCase();
      conditioned.add(name);
      if (fields.get(name) !== expected)
        return policyFailed(`Policy Condition failed: ["eq", "$${field}", "${expected}"]`);
    }
  }
  const extra = [...fields.keys()].filter(
    (name) => !UNCONDITIONED.has(name) && !name.startsWith('x-ignore-') && !conditioned.has(name),
  );
  if (extra.length > 0) return policyFailed(`Extra input fields: ${extra.join(', ')}`);

  return {
    ok: true,
    key,
    contentType: fields.get('content-type') ?? 'application/octet-stream',
    body: Buffer.from(await file.arrayBuffer()),
  };
}
