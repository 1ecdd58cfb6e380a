import { ArnFormat, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { CLIENT_LIMITS } from '#shared/throttling.ts';
import { SERVER_HEADER } from '#shared/http/headers.ts';
import { FUNCTION_LOG_RETENTION } from './api-function.ts';

/** Where a CloudFront-scoped web ACL must live, whatever region the API is in. */
export const EDGE_REGION = 'us-east-1';

/** Names of the rules (also their CloudWatch metric names). */
export const CLIENT_LIMIT_RULES = {
  perCredential: 'PerCredential',
  perAddressAnonymous: 'PerAddressAnonymous',
  perAddressCredentialed: 'PerAddressCredentialed',
} as const;

export const WEB_ACL_METRIC_NAME = 'LoyaltyApiClientLimits';
/** WAF accepts only log groups whose name starts with `aws-waf-logs-`. */
export const WAF_LOG_GROUP_NAME = 'aws-waf-logs-loyalty-api';

/** The throttled answer, in the contract's error format, like the gateway's own 429. */
const THROTTLED_BODY = JSON.stringify([
  { error: { object: 'request', property: 'base', message: 'Too many requests from this client; retry after the Retry-After interval.', code: 'throttled' } },
]);

/** What the API stack needs of the web ACL: its ARN (for CloudFront) and metric names (for the dashboard). */
export interface ClientLimitsReference {
  webAclArn: string;
  metricName: string;
  ruleMetricNames: readonly string[];
}

const hasAuthorization: CfnWebACL.StatementProperty = {
  sizeConstraintStatement: {
    fieldToMatch: { singleHeader: { Name: 'authorization' } },
    comparisonOperator: 'GT',
    size: 0,
    textTransformations: [{ priority: 0, type: 'NONE' }],
  },
};

function rateRule(
  name: string,
  priority: number,
  limit: { ratePerSecond: number },
  statement: Omit<CfnWebACL.RateBasedStatementProperty, 'limit' | 'evaluationWindowSec'>,
): CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    action: {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: 'throttled',
          responseHeaders: [
            { name: 'Retry-After', value: String(CLIENT_LIMITS.windowSeconds) },
            ...Object.entries(SERVER_HEADER).map(([name, value]) => ({ name, value })),
          ],
        },
      },
    },
    statement: {
      rateBasedStatement: { ...statement, limit: limit.ratePerSecond * CLIENT_LIMITS.windowSeconds, evaluationWindowSec: CLIENT_LIMITS.windowSeconds },
    },
    visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: name, sampledRequestsEnabled: true },
  };
}

/**
 * The per-client limits of shared/throttling.ts (CLIENT_LIMITS) as an AWS WAF web ACL for the API's
 * CloudFront distribution: three rate-based rules, keyed on the Authorization header (custom
 * aggregation key) or on the client address, each answering 429 with Retry-After in the contract's
 * error format. Blocked requests are logged (Authorization redacted) to `aws-waf-logs-loyalty-api`.
 * CloudFront only takes web ACLs of scope CLOUDFRONT, which exist in us-east-1 only: this construct
 * belongs in a stack of that region (infra/edge-stack.ts).
 */
export class ClientLimitsWebAcl extends Construct {
  public readonly webAcl: CfnWebACL;
  public readonly logGroup: LogGroup;

  public constructor(scope: Construct, id: string) {
    super(scope, id);

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Loyalty API per-client limits: no single caller can starve another',
      defaultAction: { allow: {} },
      customResponseBodies: { throttled: { contentType: 'APPLICATION_JSON', content: THROTTLED_BODY } },
      rules: [
        rateRule(CLIENT_LIMIT_RULES.perCredential, 0, CLIENT_LIMITS.perCredential, {
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [{ header: { name: 'authorization', textTransformations: [{ priority: 0, type: 'COMPRESS_WHITE_SPACE' }] } }],
          scopeDownStatement: hasAuthorization,
        }),
        rateRule(CLIENT_LIMIT_RULES.perAddressAnonymous, 1, CLIENT_LIMITS.perAddressAnonymous, {
          aggregateKeyType: 'IP',
          scopeDownStatement: { notStatement: { statement: hasAuthorization } },
        }),
        rateRule(CLIENT_LIMIT_RULES.perAddressCredentialed, 2, CLIENT_LIMITS.perAddressCredentialed, {
          aggregateKeyType: 'IP',
          scopeDownStatement: hasAuthorization,
        }),
      ],
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: WEB_ACL_METRIC_NAME, sampledRequestsEnabled: true },
    });

    this.logGroup = new LogGroup(this, 'BlockedRequests', {
      logGroupName: WAF_LOG_GROUP_NAME,
      retention: FUNCTION_LOG_RETENTION,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const logging = new CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      // WAF wants the log group ARN without the `:*` suffix of LogGroup.logGroupArn.
      logDestinationConfigs: [
        Stack.of(this).formatArn({ service: 'logs', resource: 'log-group', resourceName: WAF_LOG_GROUP_NAME, arnFormat: ArnFormat.COLON_RESOURCE_NAME }),
      ],
      // Tokens never reach a log.
      redactedFields: [{ singleHeader: { Name: 'authorization' } }],
      // Only what was blocked: allowed traffic is in the API's access log already.
      loggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [{ Behavior: 'KEEP', Requirement: 'MEETS_ANY', Conditions: [{ ActionCondition: { Action: 'BLOCK' } }] }],
      },
    });
    logging.node.addDependency(this.logGroup);
  }

  public reference(): ClientLimitsReference {
    return { webAclArn: this.webAcl.attrArn, metricName: WEB_ACL_METRIC_NAME, ruleMetricNames: Object.values(CLIENT_LIMIT_RULES) };
  }
}
