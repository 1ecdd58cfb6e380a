import { Duration, Fn, Validations } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  Function as CloudFrontFunction,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { SERVER_HEADER } from '#shared/http/headers.ts';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '#shared/http/client-address.ts';

/**
 * The viewer-request CloudFront Function (cloudfront-js-2.0): the viewer's address, as CloudFront saw
 * the connection, in VIEWER_ADDRESS_HEADER, replacing any value the client sent. The origin request
 * policy forwards it with the other viewer headers.
 */
export const VIEWER_ADDRESS_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  return request;
}`;

export interface EdgeDistributionProps {
  api: IHttpApi;
  /** ARN of the CloudFront-scoped web ACL with the per-client limits (infra/constructs/client-limits.ts). */
  webAclArn: string;
}

/**
 * The API's public entry point: a CloudFront distribution in front of the HTTP API's `$default`
 * stage, carrying the per-client limits' web ACL (AWS WAF attaches to CloudFront, not to HTTP APIs).
 * Nothing is cached: every request reaches the API with its method, path, query, body and headers
 * (Host aside, which must name the API for API Gateway to route it).
 */
export class EdgeDistribution extends Construct {
  public readonly distribution: Distribution;
  /** `https://<id>.cloudfront.net`: what clients call, and the base of every Link and *_url. */
  public readonly url: string;
  /**
   * The secret the distribution sends in EDGE_SECRET_HEADER (a CloudFormation dynamic reference to a
   * generated Secrets Manager value): the functions' EDGE_ORIGIN_SECRET, proof a request came this way.
   */
  public readonly originSecret: string;

  public constructor(scope: Construct, id: string, { api, webAclArn }: EdgeDistributionProps) {
    super(scope, id);

    // CloudFront forwards Authorization on GET only when it is part of the cache key; with a default
    // TTL of 0 nothing is stored unless the API itself sends Cache-Control, and then keyed per token.
    const apiCachePolicy = new CachePolicy(this, 'ApiCachePolicy', {
      comment: 'Loyalty API: no caching; Authorization and the query string reach the origin',
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      headerBehavior: CacheHeaderBehavior.allowList('Authorization'),
      queryStringBehavior: CacheQueryStringBehavior.all(),
      cookieBehavior: CacheCookieBehavior.none(),
    });

    // iOS and Android honour 401, 404 and 501 only with `Server: LevelUp`: set on every answer, over
    // whatever a layer in between put there (the functions send it too).
    const responseHeadersPolicy = new ResponseHeadersPolicy(this, 'ApiResponseHeaders', {
      comment: 'Loyalty API: Server: LevelUp on every answer (the LevelUp mobile SDKs read it)',
      customHeadersBehavior: { customHeaders: Object.entries(SERVER_HEADER).map(([header, value]) => ({ header, value, override: true })) },
    });

    // Proof of passage for the API (shared/http/client-address.ts): CloudFront adds it to every origin
    // request, replacing a viewer header of the same name, so only requests through here carry it.
    const secret = new Secret(this, 'OriginSecret', {
      description: 'Loyalty API: the header CloudFront adds to origin requests, so functions trust its viewer address',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Not a credential: it only proves passage through CloudFront; rotate by redeploying (docs/security.md), as both ends must change together.',
    });
    this.originSecret = secret.secretValue.unsafeUnwrap();
    const viewerAddress = new CloudFrontFunction(this, 'ViewerAddress', {
      comment: 'Loyalty API: the viewer address for per-client caps',
      code: FunctionCode.fromInline(VIEWER_ADDRESS_FUNCTION_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });

    // apiEndpoint is `https://<api-id>.execute-api.<region>.amazonaws.com`.
    const originDomain = Fn.select(2, Fn.split('/', api.apiEndpoint));
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Loyalty API (per-client limits by AWS WAF)',
      defaultBehavior: {
        origin: new HttpOrigin(originDomain, {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [OriginSslPolicy.TLS_V1_2],
          customHeaders: { [EDGE_SECRET_HEADER]: this.originSecret },
        }),
        functionAssociations: [{ function: viewerAddress, eventType: FunctionEventType.VIEWER_REQUEST }],
        allowedMethods: AllowedMethods.ALLOW_ALL,
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        cachePolicy: apiCachePolicy,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy,
      },
      webAclId: webAclArn,
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_ALL,
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    Validations.of(this.distribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'Customers and points of sale may be anywhere: no geo restriction.' },
      { id: 'AwsSolutions-CFR3', reason: 'Every request is logged by the API stage access log, and every blocked one by the web ACL log.' },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The default *.cloudfront.net certificate allows TLSv1; an operator with a custom domain sets its certificate and TLSv1.2_2021 (docs/operations.md).',
      },
    );
  }
}
