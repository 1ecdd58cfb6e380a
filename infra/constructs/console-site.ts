import { cpSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  Function as CloudFrontFunction,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type Distribution,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Bucket, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import {
  CONSOLE_ASSETS_FOLDER,
  CONSOLE_CACHE_CONTROL,
  CONSOLE_CUSTOM_HEADERS,
  CONSOLE_HSTS_SECONDS,
  CONSOLE_PATH,
  consoleContentSecurityPolicy,
  consoleSecurityHeaders,
} from '#shared/http/console-headers.ts';
import { CONSOLE_DIST, consoleIsStale } from '../../scripts/console-build.ts';
import { PRIVATE_BUCKET } from './private-bucket.ts';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The bucket's keys mirror the viewer's path (`/console/assets/x.js` -> `console/assets/x.js`): the behaviour forwards the path as it is. */
const KEY_PREFIX = CONSOLE_PATH.slice(1);

/**
 * The viewer-request function of /console/*: any path that is not a file of the build (no extension: a client
 * route of the single-page app) is answered with index.html, which routes it. A missing file keeps its 404/403.
 */
export const CONSOLE_ROUTES_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '${CONSOLE_PATH}index.html';
  return request;
}`;

export interface ConsoleSiteProps {
  /** The API's distribution (infra/constructs/edge-distribution.ts): the console shares its origin, so its CSP allows 'self' for the API. */
  distribution: Distribution;
  /**
   * The images bucket's origin (infra/constructs/images.ts, `origin`): the one other origin the CSP allows, to post
   * a location's picture and show pictures. @default none (the CSP allows 'self' only)
   */
  imagesOrigin?: string;
  /** The app staff sign in through (`-c consoleApiKey=...`): written as /console/config.json; without it the sign-in form says the console is not set up. */
  apiKey?: string;
}

/**
 * The merchant console (docs/console.md) at /console/* of the API's distribution: console/dist in a private
 * bucket read through origin access control, index.html and config.json never cached, the hashed assets for a
 * year, and the console's security headers (shared/http/console-headers.ts, what the local gateway sends too).
 * The build runs at synth on this machine (local bundling: no Docker), only when a source is newer than console/dist.
 */
export class ConsoleSite extends Construct {
  public readonly bucket: Bucket;

  public constructor(scope: Construct, id: string, { distribution, apiKey, imagesOrigin }: ConsoleSiteProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      ...PRIVATE_BUCKET,
      // Every object is rebuilt by the next deployment.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Only CloudFront reads it (origin access control) and only the deployment writes it: access logs would record the same build files.',
    });

    const securityHeaders = consoleSecurityHeaders(imagesOrigin);
    const headers = new ResponseHeadersPolicy(this, 'Headers', {
      comment: 'Merchant console: strict CSP (no inline script), HSTS, no framing, no referrer',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: consoleContentSecurityPolicy(imagesOrigin), override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.seconds(CONSOLE_HSTS_SECONDS), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
      customHeadersBehavior: {
        customHeaders: CONSOLE_CUSTOM_HEADERS.map((header) => ({ header, value: securityHeaders[header], override: true })),
      },
    });
    // The files' own Cache-Control decides (no-cache or a year); no cookie, header or query string in the key.
    const cachePolicy = new CachePolicy(this, 'Cache', {
      comment: "Merchant console: each file's own Cache-Control",
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.days(365),
      headerBehavior: CacheHeaderBehavior.none(),
      queryStringBehavior: CacheQueryStringBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    const routesFunction = new CloudFrontFunction(this, 'ClientRoutes', {
      comment: 'Merchant console: client routes answer index.html',
      code: FunctionCode.fromInline(CONSOLE_ROUTES_FUNCTION_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });
    distribution.addBehavior(`${CONSOLE_PATH}*`, S3BucketOrigin.withOriginAccessControl(this.bucket), {
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      cachePolicy,
      responseHeadersPolicy: headers,
      functionAssociations: [{ function: routesFunction, eventType: FunctionEventType.VIEWER_REQUEST }],
      compress: true,
    });

    const build = Source.asset(repositoryRoot, {
      // The build's inputs are console/ and the typed client; the hash of its output names the asset.
      assetHashType: AssetHashType.OUTPUT,
      bundling: {
        // Never used: the local build below always runs (Node is this machine's).
        image: DockerImage.fromRegistry('public.ecr.aws/docker/library/node:24'),
        local: {
          tryBundle(outputDirectory) {
            if (consoleIsStale()) execFileSync(process.execPath, ['--import', 'tsx', 'scripts/console-build.ts'], { cwd: repositoryRoot, stdio: 'inherit' });
            cpSync(CONSOLE_DIST, outputDirectory, { recursive: true });
            return true;
          },
        },
      },
      exclude: ['*', '!console', '!console/**', '!clients', '!clients/**', 'console/dist', 'console/node_modules'],
    });
    // Two deployments, each file with its Cache-Control: the hashed assets first, then the documents naming them.
    const assets = new BucketDeployment(this, 'Assets', {
      sources: [build],
      destinationBucket: this.bucket,
      destinationKeyPrefix: KEY_PREFIX,
      include: [`${CONSOLE_ASSETS_FOLDER}*`],
      exclude: ['*'],
      cacheControl: [CacheControl.fromString(CONSOLE_CACHE_CONTROL.hashedAsset)],
      // An open page may still ask for the last build's files.
      prune: false,
      memoryLimit: 512,
    });
    const documents = new BucketDeployment(this, 'Documents', {
      sources: [build, ...(apiKey ? [Source.jsonData('config.json', { api_key: apiKey })] : [])],
      destinationBucket: this.bucket,
      destinationKeyPrefix: KEY_PREFIX,
      exclude: [`${CONSOLE_ASSETS_FOLDER}*`],
      cacheControl: [CacheControl.fromString(CONSOLE_CACHE_CONTROL.document)],
      prune: false,
      memoryLimit: 512,
    });
    documents.node.addDependency(assets);
    acknowledgeDeploymentHandler(this);
  }
}

/**
 * The deployments' copy function is CDK's own (one per stack, Python, reads the asset bucket and writes this one). Its
 * findings are CDK's choices, not this stack's: acknowledged on that function alone, each by its exact finding.
 */
function acknowledgeDeploymentHandler(site: ConsoleSite): void {
  const stack = Stack.of(site);
  const part = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
  const assetBucket = `arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-${part(stack.account, 'AWS::AccountId')}-${part(stack.region, 'AWS::Region')}/*`;
  const siteBucket = `<${stack.getLogicalId(site.bucket.node.defaultChild as CfnBucket)}.Arn>/*`;
  const copyReason = "CDK's bucket deployment copies every object of the build from the asset bucket into the console's bucket.";
  for (const child of stack.node.children) {
    if (!child.node.id.startsWith('Custom::CDKBucketDeployment')) continue;
    Validations.of(child).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: "CDK's bucket deployment function logs through the AWS managed basic execution policy; CDK builds its role.",
      },
      ...[
        'Action::s3:GetObject*',
        'Action::s3:GetBucket*',
        'Action::s3:List*',
        'Action::s3:DeleteObject*',
        'Action::s3:Abort*',
        `Resource::${assetBucket}`,
        `Resource::${siteBucket}`,
      ].map((finding) => ({ id: `AwsSolutions-IAM5[${finding}]`, reason: copyReason })),
      { id: 'AwsSolutions-L1', reason: "CDK's bucket deployment function runs the Python runtime CDK ships it with." },
      { id: 'Serverless-LambdaTracing', reason: 'A copy at deployment time, run by CloudFormation; its log group records every run.' },
      { id: 'Serverless-LambdaDLQ', reason: 'Called synchronously by CloudFormation, which reports a failure as the deployment failing.' },
      { id: 'Serverless-LambdaDefaultMemorySize', reason: 'The deployments set its memory (512 MB) for copying the build.' },
      { id: 'Serverless-LambdaLatestVersion', reason: "CDK's bucket deployment function runs the Python runtime CDK ships it with." },
    );
  }
}
