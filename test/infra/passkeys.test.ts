/** The passkey routes' relying party as CDK synthesises it: the API's own host by default, or the settings. */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describe, expect, it } from 'vitest';
import { createDataTable } from '../../infra/data-table.js';
import { apiFunction } from '../../infra/lambda-defaults.js';
import { configurePasskeys, PASSKEY_ROUTES, type PasskeySettings } from '../../infra/passkeys.js';
import { stackSettings } from '../../infra/settings.js';
import type { RouteName } from '../../shared/http/contract/route-table.js';
import { routes } from '../../shared/http/contract/routes/passkeys.js';

type Resource = { Type: string; Properties: Record<string, any> };

/** The environment of each passkey route's function, configured with `settings`. */
function environments(settings: PasskeySettings) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'PasskeysTest');
  const table = createDataTable(stack, 'Table', { deletionProtection: false });
  const functions = new Map<RouteName, NodejsFunction>(
    PASSKEY_ROUTES.map((name) => [
      name,
      apiFunction(stack, `${name}Fn`, `functions/${routes[name as keyof typeof routes].handler}.ts`, {
        TABLE_NAME: table.tableName,
      }),
    ]),
  );
  configurePasskeys(functions, 'https://abc123.execute-api.eu-west-1.amazonaws.com', settings);
  const resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::Lambda::Function')
    .map((r) => r.Properties.Environment.Variables as Record<string, unknown>);
}

describe('passkeys (CDK)', () => {
  it('bind every passkey route to the API’s own host unless told otherwise', () => {
    const all = environments({});
    expect(all).toHaveLength(6);
    for (const variables of all)
      expect(variables).toMatchObject({
        WEBAUTHN_RP_ID: 'abc123.execute-api.eu-west-1.amazonaws.com',
        WEBAUTHN_ORIGINS: 'https://abc123.execute-api.eu-west-1.amazonaws.com',
      });
  });

  it('take the RP ID and origins from the settings, the origin following the RP ID when only it is given', () => {
    expect(
      environments({ rpId: 'example.com', origins: ['https://example.com', 'https://app.example.com'] })[0],
    ).toMatchObject({
      WEBAUTHN_RP_ID: 'example.com',
      WEBAUTHN_ORIGINS: 'https://example.com,https://app.example.com',
    });
    expect(environments({ rpId: 'example.com' })[0]).toMatchObject({ WEBAUTHN_ORIGINS: 'https://example.com' });
  });

  it('read the settings from context and refuse what is not a host or https origins', () => {
    const settings = (context: Record<string, unknown>) => stackSettings(new App({ context })).passkeys;
    expect(
      settings({ passkeyRpId: 'example.com', passkeyOrigins: 'https://example.com, https://a.example.com' }),
    ).toEqual({
      rpId: 'example.com',
      origins: ['https://example.com', 'https://a.example.com'],
    });
    expect(settings({})).toEqual({ rpId: undefined, origins: undefined });
    expect(() => settings({ passkeyRpId: 'https://example.com' })).toThrow(/passkeyRpId must be a host name/);
    expect(() => settings({ passkeyOrigins: 'http://example.com' })).toThrow(/passkeyOrigins must be https origins/);
  });
});
