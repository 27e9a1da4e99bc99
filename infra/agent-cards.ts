import { RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import type { RouteName } from '../shared/http/contract/route-table.js';
import { keys } from '../shared/store/keys.js';

/** The card signs with the key; the JWKS serves its public half. Each on a role of its own. */
export const CARD_SIGNING_ROUTES = ['getAgentCard', 'getJwks'] as const satisfies readonly RouteName[];

export interface AgentCardSigningProps {
  table: ITable;
  routeFunctions: ReadonlyMap<RouteName, NodejsFunction>;
}

/**
 * The agent card signing key (API.md "Accountable agents", DESIGN.md): an asymmetric KMS key,
 * ECC_NIST_P256 for SIGN_VERIFY, whose private half never leaves KMS. KMS rotates no asymmetric
 * key (automatic rotation is for symmetric keys only): replacing it means a new key beside the
 * old in the JWKS until every card is signed again. The card function may `kms:Sign` and keep its
 * signature (PutItem in profile partitions); the JWKS function may `kms:GetPublicKey`; nothing
 * else may use the key.
 */
export class AgentCardSigning extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: AgentCardSigningProps) {
    super(scope, id);
    this.key = new Key(this, 'SigningKey', {
      description:
        'Signs agent cards (ES256): GET /v1/profiles/{profile_id}/agent-card; public half at /.well-known/jwks.json',
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      // Kept when the stack goes: cards signed with it are verified against it until re-signed.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const card = props.routeFunctions.get('getAgentCard');
    const jwks = props.routeFunctions.get('getJwks');
    if (!card || !jwks) throw new Error('agent cards: the route table lacks getAgentCard or getJwks');
    for (const fn of [card, jwks]) fn.addEnvironment('AGENT_CARD_KEY_ID', this.key.keyId);
    this.key.grant(card, 'kms:Sign');
    this.key.grant(jwks, 'kms:GetPublicKey');
    // A GET, so a read role; it writes one thing: its card's signature, beside the profile item.
    card.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:PutItem'],
        resources: [props.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.agentCardSignature('*').pk] } },
      }),
    );
  }
}
