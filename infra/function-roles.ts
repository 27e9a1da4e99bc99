import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { keys } from '../shared/store/keys.js';

/**
 * What a function may do to the data: `read` (GET routes), `readWrite` (every other route), `none`
 * (the not-found fallback). Permissions follow the class, not the function.
 */
export type AccessClass = 'read' | 'readWrite' | 'none';

export interface FunctionRolesProps {
  table: ITable;
  /** The log group the functions write to; each role may write there and nowhere else. */
  logGroup: ILogGroup;
}

/**
 * Execution roles shared by the functions of one access class. One role per function would cost
 * two CloudFormation resources per route (role and policy) for permissions that are identical
 * within a class; shared, the stack stays far from the 500-resource limit as routes are added.
 * A function that another construct grants more than the table (a queue, say) gets a role of its
 * own (`dedicated`), so such a grant never spreads to the whole class.
 */
export class FunctionRoles extends Construct {
  private readonly roles = new Map<string, Role>();

  constructor(
    scope: Construct,
    id: string,
    private readonly props: FunctionRolesProps,
  ) {
    super(scope, id);
  }

  /** The role every function of this access class shares. */
  forClass(access: AccessClass): Role {
    return this.role(access, access);
  }

  /** A role for one function only, with the permissions of its access class to start from. */
  dedicated(name: string, access: AccessClass): Role {
    return this.role(`${access}-${name}`, access);
  }

  private role(key: string, access: AccessClass): Role {
    const existing = this.roles.get(key);
    if (existing) return existing;
    const role = new Role(this, key, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Social network API functions (${key}): ${DESCRIPTIONS[access]}`,
    });
    // Instead of the managed AWSLambdaBasicExecutionRole (any log group of the account): this one.
    this.props.logGroup.grantWrite(role);
    if (access === 'read') this.props.table.grantReadData(role);
    if (access === 'readWrite') this.props.table.grantReadWriteData(role);
    // Every HTTP function counts its caller's requests (shared/http/middleware/rate-limit.ts); the
    // read-only and no-data classes may touch the rate-limit window items and nothing else.
    if (access !== 'readWrite') role.addToPrincipalPolicy(rateLimitCounting(this.props.table));
    this.roles.set(key, role);
    return role;
  }
}

/** UpdateItem on rate-limit window items only (their partition keys, see shared/store/keys.ts). */
const RATE_LIMIT_KEY_PATTERN = `${keys.rateLimitPrefix}*`;

function rateLimitCounting(table: ITable): PolicyStatement {
  return new PolicyStatement({
    actions: ['dynamodb:UpdateItem'],
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [RATE_LIMIT_KEY_PATTERN] } },
  });
}

const DESCRIPTIONS: Record<AccessClass, string> = {
  read: 'read the table, count requests, write logs',
  readWrite: 'read and write the table, write logs',
  none: 'count requests, write logs',
};
