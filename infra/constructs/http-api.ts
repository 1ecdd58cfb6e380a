import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi as CdkHttpApi,
  CorsHttpMethod,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
  type CorsPreflightOptions,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { corsSettings, parseAllowedOrigins, type CorsSettings } from '#shared/http/cors.ts';
import { FALLBACK_HANDLER } from '#shared/routes.ts';
import { API_THROTTLING } from '#shared/throttling.ts';
import { ApiFunction, FUNCTION_LOG_RETENTION, constructIdFor } from './api-function.ts';

/**
 * One JSON line per request in the stage's access log (docs/operations.md reads them): what API
 * Gateway itself saw, including requests that never reached a function (throttled, 5xx of the
 * integration). No header values: tokens never reach this log.
 */
/** cdk-nag's AwsSolutions-APIG4 (a route without an API Gateway authorizer), acknowledged on every route. */
export const UNAUTHORIZED_ROUTE_ACKNOWLEDGEMENT = {
  id: 'AwsSolutions-APIG4',
  reason: 'Every function authorizes from the route table (shared/routes.ts): token kinds and permissions API Gateway authorizers cannot express.',
};

export const ACCESS_LOG_FIELDS = {
  request_id: '$context.requestId',
  time: '$context.requestTime',
  method: '$context.httpMethod',
  path: '$context.path',
  route_key: '$context.routeKey',
  status: '$context.status',
  response_length: '$context.responseLength',
  latency_ms: '$context.responseLatency',
  integration_latency_ms: '$context.integrationLatency',
  integration_error: '$context.integrationErrorMessage',
  source_ip: '$context.identity.sourceIp',
  user_agent: '$context.identity.userAgent',
} as const;

/** The CDK context naming the origins browser apps may call this deployment from (comma-separated; docs/security.md). */
export const CORS_CONTEXT = 'corsAllowOrigins';

/** shared/http/cors.ts's settings as API Gateway's CORS configuration: it answers preflights and adds the headers itself. */
export function corsPreflightOf(settings: CorsSettings): CorsPreflightOptions {
  return {
    allowOrigins: [...settings.allowOrigins],
    allowMethods: settings.allowMethods.map((method) => CorsHttpMethod[method]),
    allowHeaders: [...settings.allowHeaders],
    exposeHeaders: [...settings.exposeHeaders],
    maxAge: Duration.seconds(settings.maxAgeSeconds),
  };
}

export interface LoyaltyHttpApiProps {
  /** Origins allowed to call from a browser. @default the `corsAllowOrigins` context, else none (no CORS) */
  corsAllowOrigins?: readonly string[];
}

/**
 * The HTTP API (API Gateway v2) with its `$default` route to the fallback function (FALLBACK_HANDLER:
 * every request no route matches), a Lambda proxy integration with payload format 2.0. The routes of
 * the route table join it from their nested stacks (infra/constructs/route-functions.ts).
 * The `$default` stage auto-deploys, is throttled with API_THROTTLING and writes JSON access logs.
 * With allowed origins, API Gateway answers CORS preflights and adds the CORS headers (shared/http/cors.ts).
 */
export class LoyaltyHttpApi extends Construct {
  public readonly api: CdkHttpApi;
  /** Serves `$default`; it has no table access. */
  public readonly fallback: ApiFunction;
  public readonly stage: HttpStage;
  public readonly accessLogGroup: LogGroup;
  /** Invoke URL of the `$default` stage, ending in `/`. */
  public readonly url: string;

  public constructor(scope: Construct, id: string, props: LoyaltyHttpApiProps = {}) {
    super(scope, id);
    const cors = corsSettings(parseAllowedOrigins(props.corsAllowOrigins ?? (this.node.tryGetContext(CORS_CONTEXT) as string | string[] | undefined)));
    this.fallback = new ApiFunction(this, constructIdFor(FALLBACK_HANDLER), { handlerName: FALLBACK_HANDLER });

    this.api = new CdkHttpApi(this, 'HttpApi', {
      description: 'Loyalty, gift card, order and payments API',
      defaultIntegration: new HttpLambdaIntegration('DefaultIntegration', this.fallback, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      }),
      // The default stage is created below instead, because HttpApiProps cannot throttle it.
      createDefaultStage: false,
      ...(cors ? { corsPreflight: corsPreflightOf(cors) } : {}),
    });
    Validations.of(this.api).acknowledge(UNAUTHORIZED_ROUTE_ACKNOWLEDGEMENT);

    this.accessLogGroup = new LogGroup(this, 'AccessLogs', { retention: FUNCTION_LOG_RETENTION, removalPolicy: RemovalPolicy.DESTROY });
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      autoDeploy: true,
      throttle: { rateLimit: API_THROTTLING.rateLimit, burstLimit: API_THROTTLING.burstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogGroup),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    this.url = this.stage.url;
  }
}
