/**
 * Issue 18's template checks: cdk-nag (AwsSolutions + Serverless) finds nothing unacknowledged,
 * every acknowledgement has a reason, and the stack has access logs, active tracing, state machine
 * logging, alarms on one topic and a dashboard; the edge stack has the per-client limits.
 */
import { App, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { SYNTH_TIMEOUT_MS, synthesizedTemplates, type SynthesizedTemplates } from '../support/templates.ts';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLoyaltyApi } from '../../infra/app-stacks.ts';
import { LoyaltyApiStack } from '../../infra/stack.ts';
import type { LoyaltyApiEdgeStack } from '../../infra/edge-stack.ts';
import { ACCESS_LOG_FIELDS } from '../../infra/constructs/http-api.ts';
import { CLIENT_LIMIT_RULES, EDGE_REGION, WAF_LOG_GROUP_NAME } from '../../infra/constructs/client-limits.ts';
import { FUNCTION_LOG_RETENTION } from '../../infra/constructs/api-function.ts';
import { VIEWER_ADDRESS_FUNCTION_CODE } from '../../infra/constructs/edge-distribution.ts';
import { EDGE_SECRET_HEADER } from '#shared/http/client-address.ts';
import { BUSINESS_METRICS, METRICS_NAMESPACE } from '#shared/metrics.ts';
import { CLIENT_LIMITS } from '#shared/throttling.ts';

type Resource = { Type: string; Properties: Record<string, any> };

const API_REGION = 'eu-west-1';
let bare: LoyaltyApiStack;
let edge: LoyaltyApiEdgeStack;
let api: LoyaltyApiStack;
let template: Template;
let resources: Record<string, Resource>;
const merged = new Map<LoyaltyApiStack, SynthesizedTemplates>();
let edgeResources: Record<string, Resource>;

beforeAll(() => {
  // Bundling skipped: the templates are under test (test/ops/bundles.test.ts serves the bundles).
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  bare = new LoyaltyApiStack(app, 'Bare');
  ({ edge, api } = createLoyaltyApi(app, { region: API_REGION }));
  // Synthesis adds what CDK itself contributes (the cross-region reference's reader and writer).
  app.synth();
  // Each API stack's parent and nested route stacks as one (test/support/templates.ts).
  for (const stack of [bare, api]) merged.set(stack, synthesizedTemplates(stack));
  template = merged.get(api)!.merged;
  resources = merged.get(api)!.resources as Record<string, Resource>;
  edgeResources = Template.fromStack(edge).toJSON().Resources;
}, SYNTH_TIMEOUT_MS);

function ofType(all: Record<string, Resource>, type: string): [string, Resource][] {
  return Object.entries(all).filter(([, resource]) => resource.Type === type);
}

/** Our own functions: every ApiFunction (CDK's custom resource providers are CfnResources, not functions we configure). */
function ourFunctions(stack: LoyaltyApiStack): [string, Resource][] {
  const { logicalIdOf, resources: all } = merged.get(stack)!;
  const ids = new Set(
    [...stack.functions.values(), stack.orderAheadWorkflow.validationFunction, stack.orderAheadCompletionWorkflow.completionFunction].map(logicalIdOf),
  );
  return ofType(all as Record<string, Resource>, 'AWS::Lambda::Function').filter(([id]) => ids.has(id));
}

describe('cdk-nag', () => {
  it.each([
    ['the stack alone (new LoyaltyApiStack())', () => bare],
    ['the API stack as infra/app.ts builds it', () => api],
    ['the edge stack', () => edge],
  ])('AwsSolutions and Serverless find nothing unacknowledged in %s', (_, stackOf) => {
    for (const pack of [new AwsSolutionsChecks(), new ServerlessChecks()]) {
      const report = pack.validateScope(stackOf());
      const findings = report.violations.flatMap((violation) =>
        violation.violatingResources.map((resource) => `${violation.ruleName} at ${resource.resourceLogicalId}`),
      );
      expect(findings, `${pack.readPackName} findings`).toEqual([]);
    }
  });

  it('every acknowledgement sits in the stack and gives a one-line reason', () => {
    const acknowledged = [bare, api, edge].flatMap((stack) =>
      stack.node
        .findAll()
        .flatMap((construct) =>
          construct.node.metadata.filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY).map((entry) => entry.data),
        ),
    );
    // Recorded as { '<kind>::<rule id>': reason } per acknowledging construct.
    const rules = acknowledged.flatMap((data) => Object.entries(data as Record<string, string>));
    expect(rules.length).toBeGreaterThan(0);
    for (const [id, reason] of rules) {
      expect(id).toMatch(/::(AwsSolutions|Serverless)-/);
      expect(reason, id).toMatch(/^\S.{15,}$/);
      expect(reason).not.toContain('\n');
    }
  });
});

describe('access logs', () => {
  it('the $default stage writes one JSON line per request with the fields operators read, to a group with retention', () => {
    const [, stage] = ofType(resources, 'AWS::ApiGatewayV2::Stage')[0]!;
    const settings = stage.Properties.AccessLogSettings;
    const format = JSON.parse(settings.Format);
    expect(format).toEqual(ACCESS_LOG_FIELDS);
    expect(Object.values(format)).toEqual(
      expect.arrayContaining([
        '$context.requestId',
        '$context.routeKey',
        '$context.status',
        '$context.responseLatency',
        '$context.integrationLatency',
        '$context.identity.sourceIp',
        '$context.identity.userAgent',
      ]),
    );
    const logGroupId = settings.DestinationArn['Fn::GetAtt'][0];
    expect(resources[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: FUNCTION_LOG_RETENTION } });
  });
});

describe('tracing', () => {
  it.each([
    ['bare', () => bare],
    ['api', () => api],
  ])('every function of the %s stack traces actively and has its own role with no managed policy', (_, stackOf) => {
    const functions = ourFunctions(stackOf());
    // The route functions and the two workflows' Task functions.
    expect(functions.length).toBe(stackOf().functions.size + 2);
    const all = merged.get(stackOf())!.resources as Record<string, Resource>;
    for (const [id, fn] of functions) {
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      const role = all[fn.Properties.Role['Fn::GetAtt'][0]]!;
      expect(role.Properties.ManagedPolicyArns, id).toBeUndefined();
    }
  });

  it('both state machines trace and log without execution data (validation: errors; completion, which moves money: every event)', () => {
    const machineOf = (construct: { node: { defaultChild?: unknown } }) => resources[api.getLogicalId(construct.node.defaultChild as CfnFunction)]!;
    for (const [machine, level] of [
      [machineOf(api.orderAheadWorkflow.stateMachine), 'ERROR'],
      [machineOf(api.orderAheadCompletionWorkflow.stateMachine), 'ALL'],
    ] as const) {
      expect(machine.Properties.TracingConfiguration).toEqual({ Enabled: true });
      expect(machine.Properties.LoggingConfiguration).toMatchObject({ Level: level, IncludeExecutionData: false });
      const destination = machine.Properties.LoggingConfiguration.Destinations[0].CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0];
      expect(resources[destination]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: FUNCTION_LOG_RETENTION } });
    }
  });
});

describe('alarms and dashboard', () => {
  const topicRef = () => ({ Ref: ofType(resources, 'AWS::SNS::Topic')[0]![0] });

  it('an encrypted, TLS-only SNS topic receives every alarm and its recovery', () => {
    const [topicId, topic] = ofType(resources, 'AWS::SNS::Topic')[0]!;
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      Topics: [{ Ref: topicId }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    const alarms = ofType(resources, 'AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThanOrEqual(8);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions, id).toEqual([topicRef()]);
      expect(alarm.Properties.OKActions, id).toEqual([topicRef()]);
    }
  });

  it('covers the API, the functions, the table, the workflow and money that needs a human', () => {
    const alarms = ofType(resources, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties);
    const onMetric = (namespace: string, metricName: string) =>
      alarms.filter(
        (alarm) =>
          (alarm.Namespace === namespace && alarm.MetricName === metricName) ||
          (alarm.Metrics ?? []).some((query: any) => query.MetricStat?.Metric?.Namespace === namespace && query.MetricStat?.Metric?.MetricName === metricName),
      );
    expect(onMetric('AWS/ApiGateway', '5xx')).toHaveLength(1);
    expect(onMetric('AWS/ApiGateway', 'Latency')).toEqual([expect.objectContaining({ ExtendedStatistic: 'p99' })]);
    // The API functions, the two workflows' tasks and the image processing.
    expect(onMetric('AWS/Lambda', 'Errors')).toHaveLength(api.functions.size + 3);
    expect(onMetric('AWS/Lambda', 'Throttles')).toHaveLength(1);
    expect(onMetric('AWS/DynamoDB', 'ThrottledRequests')).toHaveLength(1);
    expect(onMetric('AWS/DynamoDB', 'SystemErrors')).toHaveLength(1);
    // One of each per state machine (validation, completion).
    expect(onMetric('AWS/States', 'ExecutionsFailed')).toHaveLength(2);
    expect(onMetric('AWS/States', 'ExecutionsTimedOut')).toHaveLength(2);
    expect(onMetric(METRICS_NAMESPACE, BUSINESS_METRICS.chargeVoidFailed)).toEqual([expect.objectContaining({ Threshold: 1, Statistic: 'Sum' })]);
  });

  it('one dashboard draws the API, the money metrics, the table, the workflow and the edge', () => {
    const dashboards = ofType(resources, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]![1].Properties.DashboardBody);
    for (const name of [...Object.values(BUSINESS_METRICS), 'AWS/ApiGateway', 'AWS/DynamoDB', 'AWS/States', 'AWS/WAFV2']) expect(body).toContain(name);
  });
});

describe('per-client limits (edge)', () => {
  it('lives in us-east-1, where CloudFront web ACLs must be', () => {
    expect(edge.region).toBe(EDGE_REGION);
    expect(api.region).toBe(API_REGION);
  });

  it('rate-limits per credential and per address, answering 429 with Retry-After in the error format', () => {
    const [, acl] = ofType(edgeResources, 'AWS::WAFv2::WebACL')[0]!;
    expect(acl.Properties).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    const rules = Object.fromEntries((acl.Properties.Rules as any[]).map((rule) => [rule.Name, rule]));
    const window = CLIENT_LIMITS.windowSeconds;
    expect(rules[CLIENT_LIMIT_RULES.perCredential].Statement.RateBasedStatement).toMatchObject({
      Limit: CLIENT_LIMITS.perCredential.ratePerSecond * window,
      EvaluationWindowSec: window,
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [{ Header: { Name: 'authorization', TextTransformations: [{ Priority: 0, Type: 'COMPRESS_WHITE_SPACE' }] } }],
    });
    expect(rules[CLIENT_LIMIT_RULES.perAddressAnonymous].Statement.RateBasedStatement).toMatchObject({
      Limit: CLIENT_LIMITS.perAddressAnonymous.ratePerSecond * window,
      AggregateKeyType: 'IP',
      ScopeDownStatement: { NotStatement: { Statement: { SizeConstraintStatement: { FieldToMatch: { SingleHeader: { Name: 'authorization' } } } } } },
    });
    expect(rules[CLIENT_LIMIT_RULES.perAddressCredentialed].Statement.RateBasedStatement).toMatchObject({
      Limit: CLIENT_LIMITS.perAddressCredentialed.ratePerSecond * window,
      AggregateKeyType: 'IP',
      ScopeDownStatement: { SizeConstraintStatement: { FieldToMatch: { SingleHeader: { Name: 'authorization' } } } },
    });
    for (const rule of Object.values<any>(rules)) {
      // Server: LevelUp too: the mobile SDKs read an answer without it as a generic server error (docs/app-surface.md).
      expect(rule.Action.Block.CustomResponse).toMatchObject({
        ResponseCode: 429,
        ResponseHeaders: [
          { Name: 'Retry-After', Value: String(window) },
          { Name: 'Server', Value: 'LevelUp' },
        ],
      });
    }
    const body = JSON.parse(acl.Properties.CustomResponseBodies.throttled.Content);
    expect(body).toEqual([{ error: expect.objectContaining({ object: 'request', code: 'throttled' }) }]);
  });

  it('logs blocked requests without the Authorization header', () => {
    const [, logging] = ofType(edgeResources, 'AWS::WAFv2::LoggingConfiguration')[0]!;
    expect(logging.Properties.RedactedFields).toEqual([{ SingleHeader: { Name: 'authorization' } }]);
    expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).toContain(WAF_LOG_GROUP_NAME);
    expect(ofType(edgeResources, 'AWS::Logs::LogGroup')[0]![1].Properties).toMatchObject({
      LogGroupName: WAF_LOG_GROUP_NAME,
      RetentionInDays: FUNCTION_LOG_RETENTION,
    });
  });

  it('CloudFront carries the web ACL in front of the stage, forwards Authorization, caches nothing, and is the base of every link', () => {
    const [distributionId, distribution] = ofType(resources, 'AWS::CloudFront::Distribution')[0]!;
    const config = distribution.Properties.DistributionConfig;
    expect(JSON.stringify(config.WebACLId)).toMatch(/ExportsReader|webacl/i);
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: expect.arrayContaining(['POST', 'PUT', 'PATCH', 'DELETE']),
    });
    const cachePolicy = resources[config.DefaultCacheBehavior.CachePolicyId.Ref]!.Properties.CachePolicyConfig;
    expect(cachePolicy).toMatchObject({
      DefaultTTL: 0,
      MinTTL: 0,
      ParametersInCacheKeyAndForwardedToOrigin: { HeadersConfig: { HeaderBehavior: 'whitelist', Headers: ['Authorization'] } },
    });
    expect(JSON.stringify(config.Origins[0].DomainName)).toContain('ApiEndpoint');
    // Every answer leaves the edge with Server: LevelUp, over whatever the origin sent (docs/app-surface.md).
    const headersPolicy = resources[config.DefaultCacheBehavior.ResponseHeadersPolicyId.Ref]!.Properties.ResponseHeadersPolicyConfig;
    expect(headersPolicy.CustomHeadersConfig.Items).toEqual([{ Header: 'Server', Value: 'LevelUp', Override: true }]);
    for (const [id, fn] of ourFunctions(api)) {
      expect(fn.Properties.Environment.Variables.PUBLIC_BASE_URL, id).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]],
      });
    }
    template.hasOutput('ApiUrl', { Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] } });
  });
});

describe('per-client caps behind CloudFront (viewer address)', () => {
  it('the distribution adds the generated origin secret to every origin request and runs the viewer-address function on viewer requests', () => {
    const [, distribution] = ofType(resources, 'AWS::CloudFront::Distribution')[0]!;
    const config = distribution.Properties.DistributionConfig;
    const [secretId] = ofType(resources, 'AWS::SecretsManager::Secret')[0]!;
    expect(resources[secretId]!.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 48 });
    const header = (config.Origins[0].OriginCustomHeaders as any[]).find((entry) => entry.HeaderName === EDGE_SECRET_HEADER);
    expect(JSON.stringify(header.HeaderValue)).toContain('{{resolve:secretsmanager:');
    expect(JSON.stringify(header.HeaderValue)).toContain(`"Ref":"${secretId}"`);
    const [association] = config.DefaultCacheBehavior.FunctionAssociations as any[];
    expect(association.EventType).toBe('viewer-request');
    const functionId = association.FunctionARN['Fn::GetAtt'][0];
    expect(resources[functionId]!.Properties).toMatchObject({ FunctionCode: VIEWER_ADDRESS_FUNCTION_CODE, FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
    // Every HTTP function compares against the same secret; the workflows' Task functions serve no HTTP and get none.
    const { logicalIdOf } = merged.get(api)!;
    for (const fn of api.functions.values())
      expect(resources[logicalIdOf(fn)]!.Properties.Environment.Variables.EDGE_ORIGIN_SECRET).toEqual(header.HeaderValue);
    for (const fn of [api.orderAheadWorkflow.validationFunction, api.orderAheadCompletionWorkflow.completionFunction]) {
      expect(resources[logicalIdOf(fn)]!.Properties.Environment.Variables.EDGE_ORIGIN_SECRET).toBeUndefined();
    }
  });

  it('the stack without the distribution configures no secret: functions key on sourceIp', () => {
    const { resources: bareResources } = merged.get(bare)!;
    for (const [id, fn] of ourFunctions(bare)) expect(fn.Properties.Environment.Variables.EDGE_ORIGIN_SECRET, id).toBeUndefined();
    expect(ofType(bareResources as Record<string, Resource>, 'AWS::SecretsManager::Secret')).toEqual([]);
  });
});

describe('metrics environment', () => {
  it('every function knows the metrics namespace and service of shared/metrics.ts', () => {
    for (const [id, fn] of ourFunctions(api)) {
      expect(fn.Properties.Environment.Variables, id).toMatchObject({
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        POWERTOOLS_SERVICE_NAME: 'loyalty-api',
      });
    }
  });
});
