import { HttpApi as CdkHttpApi, HttpMethod, HttpStage, PayloadFormatVersion } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { Route } from '#shared/routes.ts';
import { API_THROTTLING } from '#shared/throttling.ts';
import { constructIdFor } from './route-functions.ts';

export interface LoyaltyHttpApiProps {
  routes: readonly Route[];
  /** Handler name -> function; must hold every route's handler. */
  functions: ReadonlyMap<string, IFunction>;
  /** Serves `$default`: every request no route matches. */
  fallback: IFunction;
}

/**
 * The HTTP API (API Gateway v2): one route per entry of the route table, method and path exactly
 * as there, each a Lambda proxy integration with payload format 2.0, and `$default` to the fallback.
 * The `$default` stage auto-deploys and is throttled with API_THROTTLING.
 */
export class LoyaltyHttpApi extends Construct {
  public readonly api: CdkHttpApi;
  public readonly stage: HttpStage;
  /** Invoke URL of the `$default` stage, ending in `/`. */
  public readonly url: string;

  public constructor(scope: Construct, id: string, { routes, functions, fallback }: LoyaltyHttpApiProps) {
    super(scope, id);

    this.api = new CdkHttpApi(this, 'HttpApi', {
      description: 'Loyalty, gift card, order and payments API',
      defaultIntegration: new HttpLambdaIntegration('DefaultIntegration', fallback, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      }),
      // The default stage is created below instead, because HttpApiProps cannot throttle it.
      createDefaultStage: false,
    });

    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      autoDeploy: true,
      throttle: { rateLimit: API_THROTTLING.rateLimit, burstLimit: API_THROTTLING.burstLimit },
    });
    this.url = this.stage.url;

    for (const route of routes) {
      const fn = functions.get(route.handler);
      if (!fn) throw new Error(`No function for handler ${route.handler} (${route.method} ${route.path})`);
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${constructIdFor(route.handler)}Integration`, fn, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        }),
      });
    }
  }
}
