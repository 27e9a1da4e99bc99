/**
 * The passkey routes' relying party in AWS: the RP ID and the origins the console is served from.
 * Without settings, the API's own host (the console is served on the same gateway, at /console);
 * with a custom domain in front, `-c passkeyRpId=example.com -c passkeyOrigins=https://example.com`.
 */
import { Fn } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RouteName } from '../shared/http/contract/route-table.js';
import { routes as passkeyRoutes } from '../shared/http/contract/routes/passkeys.js';

export interface PasskeySettings {
  rpId?: string | undefined;
  origins?: string[] | undefined;
}

/** Every passkey route reads the relying party (the ones that do not are a few bytes of environment). */
export const PASSKEY_ROUTES = Object.keys(passkeyRoutes) as RouteName[];

/**
 * Sets WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS on the passkey routes' functions. `apiEndpoint` is the
 * HTTP API's `https://<id>.execute-api.<region>.<suffix>`: its host is the default RP ID.
 */
export function configurePasskeys(
  routeFunctions: ReadonlyMap<RouteName, NodejsFunction>,
  apiEndpoint: string,
  settings: PasskeySettings,
): void {
  const rpId = settings.rpId ?? Fn.select(2, Fn.split('/', apiEndpoint));
  const origins = settings.origins?.join(',') ?? (settings.rpId ? `https://${settings.rpId}` : apiEndpoint);
  for (const name of PASSKEY_ROUTES) {
    const fn = routeFunctions.get(name);
    if (!fn) throw new Error(`No function for the passkey route ${name}`);
    fn.addEnvironment('WEBAUTHN_RP_ID', rpId);
    fn.addEnvironment('WEBAUTHN_ORIGINS', origins);
  }
}
