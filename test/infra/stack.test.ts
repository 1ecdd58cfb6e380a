import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_FROM, LoyaltyApiStack } from '../../infra/stack.ts';
import { addressOf } from '../../infra/constructs/mail.ts';
import { FUNCTION_MEMORY_MB, FUNCTION_TIMEOUT_SECONDS, TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS } from '../../infra/constructs/api-function.ts';
import { GLOBAL_INDEXES, PARTITION_KEY, SORT_KEY, TTL_ATTRIBUTE } from '#shared/db/table-definition.ts';
import { FALLBACK_HANDLER, routeKey, routes } from '#shared/routes.ts';
import { API_THROTTLING } from '#shared/throttling.ts';
import { SYNTH_TIMEOUT_MS, synthesizedTemplates, type Resource, type SynthesizedTemplates } from '../support/templates.ts';

let stack: LoyaltyApiStack;
let synthesized: SynthesizedTemplates;
let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  // Skip bundling: the template is what is under test, and esbuild would make this slow.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new LoyaltyApiStack(app, 'LoyaltyApi');
  // The parent and its nested route stacks as one (test/support/templates.ts).
  synthesized = synthesizedTemplates(stack);
  template = synthesized.merged;
  resources = synthesized.resources;
}, SYNTH_TIMEOUT_MS);

function ofType(type: string): [string, Resource][] {
  return Object.entries(resources).filter(([, resource]) => resource.Type === type);
}

/** The logical id of the function serving a handler. */
function functionId(handler: string): string {
  const fn = stack.functions.get(handler);
  if (!fn) throw new Error(`stack.functions has no ${handler}`);
  return synthesized.logicalIdOf(fn);
}

function tableId(): string {
  const tables = ofType('AWS::DynamoDB::Table');
  expect(tables).toHaveLength(1);
  return tables[0]![0];
}

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Every IAM action granted to a function's role, from all policies attached to it. */
function actionsOf(handler: string): string[] {
  const roleRef = resources[functionId(handler)]!.Properties!.Role as { 'Fn::GetAtt': [string, string] };
  const roleId = roleRef['Fn::GetAtt'][0];
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => asArray(policy.Properties!.Roles).some((role: any) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as any[])
    .flatMap((statement) => asArray<string>(statement.Action));
}

/** The function an API Gateway route key ends up at, resolved through its integration. */
function functionIdOfRoute(key: string): string {
  const matching = ofType('AWS::ApiGatewayV2::Route').filter(([, route]) => route.Properties!.RouteKey === key);
  expect(matching, `routes with key ${key}`).toHaveLength(1);
  const target = matching[0]![1].Properties!.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
  const [prefix, integrationRef] = target['Fn::Join'][1];
  expect(prefix).toBe('integrations/');
  const integration = resources[integrationRef.Ref]!;
  expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
  expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
  const uri = integration.Properties!.IntegrationUri as { 'Fn::GetAtt': [string, string] };
  expect(uri['Fn::GetAtt'][1]).toBe('Arn');
  return uri['Fn::GetAtt'][0];
}

const handlers = [...routes.map((route) => route.handler), FALLBACK_HANDLER];
const MUTATING_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

describe('functions', () => {
  it('has one API function per route plus the fallback', () => {
    const apiFunctions = template.findResources('AWS::Lambda::Function', { Properties: { Handler: 'index.handler', Runtime: 'nodejs24.x' } });
    expect(Object.keys(apiFunctions)).toHaveLength(routes.length + 1);
    expect(new Set(handlers.map(functionId))).toEqual(new Set(Object.keys(apiFunctions)));
  });

  it.each(handlers)("%s runs Node.js 24 on arm64 with the house defaults and its route's memory", (handler) => {
    const fn = resources[functionId(handler)]!;
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      // The measured pick of shared/routes.ts (docs/cost.md "Memory per function"), else the default.
      MemorySize: routes.find((route) => route.handler === handler)?.memory ?? FUNCTION_MEMORY_MB,
      Timeout: FUNCTION_TIMEOUT_SECONDS,
      Handler: 'index.handler',
      Environment: { Variables: { LOG_LEVEL: 'info' } },
    });
    const logGroupRef = fn.Properties!.LoggingConfig.LogGroup as { Ref: string };
    const logGroup = resources[logGroupRef.Ref]!;
    expect(logGroup.Type).toBe('AWS::Logs::LogGroup');
    expect(logGroup.Properties!.RetentionInDays).toBe(30);
  });

  it.each(routes.filter((route) => route.table !== 'none'))('$handler gets TABLE_NAME', (route) => {
    expect(resources[functionId(route.handler)]!.Properties!.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableId() });
  });

  it.each(routes.filter((route) => route.table === 'none'))('$handler (table none) gets no TABLE_NAME', (route) => {
    expect(resources[functionId(route.handler)]!.Properties!.Environment.Variables.TABLE_NAME).toBeUndefined();
  });

  it('the fallback gets no TABLE_NAME', () => {
    expect(resources[functionId(FALLBACK_HANDLER)]!.Properties!.Environment.Variables.TABLE_NAME).toBeUndefined();
  });
});

describe('routes', () => {
  it('has exactly the route table plus $default', () => {
    const keys = ofType('AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties!.RouteKey as string);
    expect(keys.sort()).toEqual([...routes.map(routeKey), '$default'].sort());
  });

  it.each(routes.map((route) => ({ key: routeKey(route), handler: route.handler })))('$key -> $handler', ({ key, handler }) => {
    expect(functionIdOfRoute(key)).toBe(functionId(handler));
  });

  it(`$default -> ${FALLBACK_HANDLER}`, () => {
    expect(functionIdOfRoute('$default')).toBe(functionId(FALLBACK_HANDLER));
  });

  it.each(handlers)('API Gateway may invoke %s', (handler) => {
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'apigateway.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [functionId(handler), 'Arn'] },
    });
  });

  it('throttles the auto-deployed $default stage', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: API_THROTTLING.rateLimit,
        ThrottlingBurstLimit: API_THROTTLING.burstLimit,
      },
    });
  });

  it('outputs the API URL and the table name', () => {
    template.hasOutput('ApiUrl', {});
    template.hasOutput('TableName', { Value: { Ref: tableId() } });
  });
});

describe('table', () => {
  it('matches shared/db/table-definition.ts', () => {
    const attributes = [PARTITION_KEY, SORT_KEY, ...GLOBAL_INDEXES.flatMap((index) => [index.partitionKey, index.sortKey])];
    const table = resources[tableId()]!.Properties!;
    expect(table.KeySchema).toEqual([
      { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
      { AttributeName: SORT_KEY, KeyType: 'RANGE' },
    ]);
    expect(new Set(table.AttributeDefinitions)).toEqual(new Set(attributes.map((AttributeName) => ({ AttributeName, AttributeType: 'S' }))));
    expect(table.GlobalSecondaryIndexes).toHaveLength(GLOBAL_INDEXES.length);
    for (const index of GLOBAL_INDEXES) {
      expect(table.GlobalSecondaryIndexes).toContainEqual({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      });
    }
  });

  it('is on-demand, recoverable, protected and retained, with TTL', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    });
  });
});

describe('IAM', () => {
  it('grants no wildcard action', () => {
    const actions = ofType('AWS::IAM::Policy')
      .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as any[])
      .flatMap((statement) => asArray<string>(statement.Action));
    expect(actions.length).toBeGreaterThan(0);
    for (const action of actions) {
      expect(action).not.toBe('*');
      expect(action).not.toMatch(/\*/);
    }
  });

  it.each(routes.filter((route) => route.table === 'read'))('$handler (read) may only read', (route) => {
    const actions = actionsOf(route.handler).filter((action) => action.startsWith('dynamodb:'));
    expect(new Set(actions)).toEqual(new Set(TABLE_READ_ACTIONS));
    for (const mutating of MUTATING_ACTIONS) expect(actions).not.toContain(mutating);
  });

  it.each(routes.filter((route) => route.table === 'write'))('$handler (write) may read and write', (route) => {
    const actions = actionsOf(route.handler).filter((action) => action.startsWith('dynamodb:'));
    expect(new Set(actions)).toEqual(new Set(TABLE_WRITE_ACTIONS));
  });

  it.each(routes)('$handler is granted the table and its indexes only', (route) => {
    const roleRef = resources[functionId(route.handler)]!.Properties!.Role as { 'Fn::GetAtt': [string, string] };
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => asArray(policy.Properties!.Roles).some((role: any) => role.Ref === roleRef['Fn::GetAtt'][0]))
      .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as any[])
      .filter((statement) => asArray<string>(statement.Action).some((action) => action.startsWith('dynamodb:')));
    const table = tableId();
    for (const statement of statements) {
      expect(statement.Effect).toBe('Allow');
      // Each index by name: no `index/*` wildcard.
      expect(asArray(statement.Resource)).toEqual([
        { 'Fn::GetAtt': [table, 'Arn'] },
        ...GLOBAL_INDEXES.map((index) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [table, 'Arn'] }, `/index/${index.name}`]] })),
      ]);
    }
  });

  it.each(routes.filter((route) => route.table === 'none'))('$handler (table none) has no DynamoDB access', (route) => {
    expect(actionsOf(route.handler).filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
  });

  it(`${FALLBACK_HANDLER} has no DynamoDB access`, () => {
    expect(actionsOf(FALLBACK_HANDLER).filter((action) => action.startsWith('dynamodb:'))).toEqual([]);
  });
});

describe('mail (SES)', () => {
  /** A function's IAM statements that name an SES action. */
  function sesStatements(handler: string): any[] {
    return sesStatementsOf(functionId(handler));
  }
  function sesStatementsOf(logicalId: string): any[] {
    const roleRef = resources[logicalId]!.Properties!.Role as { 'Fn::GetAtt': [string, string] };
    return ofType('AWS::IAM::Policy')
      .filter(([, policy]) => asArray(policy.Properties!.Roles).some((role: any) => role.Ref === roleRef['Fn::GetAtt'][0]))
      .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as any[])
      .filter((statement) => asArray<string>(statement.Action).some((action) => action.startsWith('ses:')));
  }

  it("creates the sender's domain as the SES identity", () => {
    template.resourceCountIs('AWS::SES::EmailIdentity', 1);
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: addressOf(DEFAULT_MAIL_FROM).split('@')[1] });
  });

  /** The function may ses:SendEmail on the stack's identity only, and knows MAIL_FROM. */
  function expectSender(logicalId: string): void {
    const identityId = ofType('AWS::SES::EmailIdentity')[0]![0];
    const statements = sesStatementsOf(logicalId);
    expect(statements).toHaveLength(1);
    expect(statements[0].Effect).toBe('Allow');
    expect(asArray(statements[0].Action)).toEqual(['ses:SendEmail']);
    const resource = JSON.stringify(statements[0].Resource);
    expect(resource).toContain(':ses:');
    expect(resource).toContain(':identity/');
    expect(resource).toContain(`"Ref":"${identityId}"`);
    expect(resources[logicalId]!.Properties!.Environment.Variables.MAIL_FROM).toBe(DEFAULT_MAIL_FROM);
  }

  it.each(routes.filter((route) => route.sendsEmail))('$handler may ses:SendEmail on that identity only, and knows MAIL_FROM', (route) => {
    expectSender(functionId(route.handler));
  });

  it('the stream function sends the mail outbox (gift card orders): ses:SendEmail on that identity only, and MAIL_FROM; the gift card order route may not send', () => {
    expectSender(synthesized.logicalIdOf(stack.webhookDelivery.streamFunction));
    expect(routes.find((route) => route.handler === 'gift-card-value-orders-create')!.sendsEmail).toBeFalsy();
  });

  it.each([...routes.filter((route) => !route.sendsEmail).map((route) => route.handler), FALLBACK_HANDLER])('%s may not send email', (handler) => {
    expect(sesStatements(handler)).toEqual([]);
    expect(resources[functionId(handler)]!.Properties!.Environment.Variables.MAIL_FROM).toBeUndefined();
  });

  it.each(handlers)('%s POSTs permissions-request callbacks to https only (no ALLOW_HTTP_CALLBACKS in AWS)', (handler) => {
    expect(resources[functionId(handler)]!.Properties!.Environment.Variables.ALLOW_HTTP_CALLBACKS).toBeUndefined();
  });

  it('refuses a sender outside the identity', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    expect(() => new LoyaltyApiStack(app, 'Mismatch', { mailFrom: 'no-reply@elsewhere.example', mailIdentity: 'loyalty.example.com' })).toThrow(
      /not an address of the mail identity/,
    );
  });
});
