/** The agent card signing key as CDK synthesises it: an asymmetric P-256 KMS key, used by the card and JWKS functions only. */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { beforeAll, describe, expect, it } from 'vitest';
import { AgentCardSigning } from '../../infra/agent-cards.js';
import { createDataTable } from '../../infra/data-table.js';
import { apiFunction } from '../../infra/lambda-defaults.js';
import type { RouteName } from '../../shared/http/contract/route-table.js';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };
type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };

let template: Template;
let resources: Record<string, Resource>;
let functionIds: { card: string; jwks: string; other: string };

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'AgentCardsTest');
  const table = createDataTable(stack, 'Table', { deletionProtection: false });
  const environment = { TABLE_NAME: table.tableName };
  const card = apiFunction(stack, 'CardRoute', 'functions/agent-cards/get-agent-card.ts', environment);
  const jwks = apiFunction(stack, 'JwksRoute', 'functions/agent-cards/get-jwks.ts', environment);
  const other = apiFunction(stack, 'ProfileRoute', 'functions/profiles/get-profile.ts', environment);
  new AgentCardSigning(stack, 'AgentCards', {
    table,
    routeFunctions: new Map<RouteName, NodejsFunction>([
      ['getAgentCard', card],
      ['getJwks', jwks],
      ['getProfile', other],
    ]),
  });
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources;
  functionIds = {
    card: stack.getLogicalId(card.node.defaultChild as never),
    jwks: stack.getLogicalId(jwks.node.defaultChild as never),
    other: stack.getLogicalId(other.node.defaultChild as never),
  };
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const keyId = () => ofType('AWS::KMS::Key')[0]![0];

/** Every statement of the policies attached to the role of `functionId`. */
function statementsOf(functionId: string): Statement[] {
  const role = (resources[functionId]!.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
}
const kmsActionsOf = (functionId: string) =>
  statementsOf(functionId)
    .flatMap((s) => [s.Action].flat())
    .filter((a) => a.startsWith('kms:'));

describe('agent card signing (CDK)', () => {
  it('is one asymmetric ECC_NIST_P256 SIGN_VERIFY key, kept when the stack goes, without rotation (KMS rotates no asymmetric key)', () => {
    const keys = ofType('AWS::KMS::Key');
    expect(keys).toHaveLength(1);
    const [, key] = keys[0]!;
    expect(key.Properties).toMatchObject({ KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' });
    expect(key.Properties.EnableKeyRotation).not.toBe(true);
    expect(key.DeletionPolicy).toBe('Retain');
  });

  it('grants kms:Sign to the card function and kms:GetPublicKey to the JWKS function, on the key only', () => {
    expect(kmsActionsOf(functionIds.card)).toEqual(['kms:Sign']);
    expect(kmsActionsOf(functionIds.jwks)).toEqual(['kms:GetPublicKey']);
    expect(kmsActionsOf(functionIds.other)).toEqual([]);
    for (const id of [functionIds.card, functionIds.jwks]) {
      const kms = statementsOf(id).filter((s) => [s.Action].flat().some((a) => a.startsWith('kms:')));
      expect(kms.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [keyId(), 'Arn'] }]);
    }
  });

  it('tells both functions the key id, and lets the card keep its signature in profile partitions only', () => {
    for (const id of [functionIds.card, functionIds.jwks])
      expect(resources[id]!.Properties.Environment.Variables.AGENT_CARD_KEY_ID).toEqual({ Ref: keyId() });
    expect(resources[functionIds.other]!.Properties.Environment.Variables.AGENT_CARD_KEY_ID).toBeUndefined();
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 'dynamodb:PutItem',
            Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PROFILE#*'] } },
          }),
        ]),
      },
    });
    expect(statementsOf(functionIds.jwks).some((s) => [s.Action].flat().includes('dynamodb:PutItem'))).toBe(false);
  });
});
