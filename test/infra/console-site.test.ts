import { App, Stack, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CACHE_CONTROL, CONSOLE_HSTS_SECONDS, consoleContentSecurityPolicy } from '#shared/http/console-headers.ts';
import { ConsoleSite } from '../../infra/constructs/console-site.ts';
import { ImageStore } from '../../infra/constructs/images.ts';

/**
 * The merchant console's part of the template (docs/console.md): a private bucket read through origin access
 * control, the /console/* behaviour with the console's headers and cache policy, the client-route function, and the
 * two deployments of console/dist (built at synth by local bundling). The whole app's template and nag checks are
 * in stack.test.ts and observability.test.ts; this one holds the console's own resources in a small stack.
 */
let stack: Stack;
let template: Template;
let images: ImageStore;

/** A CloudFormation string (plain, or Fn::Join of parts) with each reference written `<LogicalId>` / `<LogicalId.Attribute>`. */
function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  const object = value as Record<string, any>;
  if (object['Fn::Join']) return (object['Fn::Join'][1] as unknown[]).map(flatten).join(object['Fn::Join'][0]);
  if (object.Ref) return `<${object.Ref}>`;
  if (object['Fn::GetAtt']) return `<${(object['Fn::GetAtt'] as string[]).join('.')}>`;
  throw new Error(`not a string: ${JSON.stringify(value)}`);
}

beforeAll(() => {
  const app = new App({ context: { consoleApiKey: 'console-test-key' } });
  stack = new Stack(app, 'ConsoleSiteTest', { env: { account: '123456789012', region: 'us-east-1' } });
  const distribution = new Distribution(stack, 'Distribution', { defaultBehavior: { origin: new HttpOrigin('api.example.com') } });
  // This stand-in distribution's own findings are the real one's, acknowledged there (infra/constructs/edge-distribution.ts).
  Validations.of(distribution).acknowledge(
    ...['CFR1', 'CFR2', 'CFR3', 'CFR4'].map((rule) => ({ id: `AwsSolutions-${rule}`, reason: 'The stand-in for the API distribution of this test only.' })),
  );
  // The images bucket as the stack wires it (infra/stack.ts): its origin in the CSP, the console's origin in its CORS rule.
  images = new ImageStore(stack, 'Images', { readers: [] });
  new ConsoleSite(stack, 'Console', { distribution, apiKey: 'console-test-key', imagesOrigin: images.origin });
  images.allowConsoleUploads(`https://${distribution.distributionDomainName}`);
  template = Template.fromStack(stack);
});

describe('the console site', () => {
  it('keeps the files in a private, encrypted, TLS-only bucket that only the distribution reads (origin access control)', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
    });
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject' }),
        ]),
      },
    });
  });

  it('serves /console/* from the bucket over HTTPS, GET and HEAD only, with the console headers, its cache policy and the client-route function', () => {
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]!;
    const behaviours = distribution.Properties.DistributionConfig.CacheBehaviors;
    expect(behaviours).toHaveLength(1);
    expect(behaviours[0]).toMatchObject({
      PathPattern: '/console/*',
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
      Compress: true,
      FunctionAssociations: [{ EventType: 'viewer-request' }],
    });
    const origin = distribution.Properties.DistributionConfig.Origins.find((entry: any) => entry.Id === behaviours[0].TargetOriginId);
    expect(origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    expect(origin.OriginAccessControlId).toBeDefined();

    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: Match.anyValue(), Override: true },
          StrictTransportSecurity: { AccessControlMaxAgeSec: CONSOLE_HSTS_SECONDS, IncludeSubdomains: true, Override: true },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
        },
      },
    });
    // The CSP: 'self', and for pictures exactly the images bucket's origin (the address the SDK signs), no wildcard.
    const policy = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0]!;
    const csp = flatten(policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
    const bucketId = stack.getLogicalId(images.bucket.node.defaultChild as CfnBucket);
    const imagesOrigin = `https://<${bucketId}>.s3.us-east-1.<AWS::URLSuffix>`;
    expect(csp).toBe(consoleContentSecurityPolicy(imagesOrigin));
    expect(csp).toBe(
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: ${imagesOrigin}; font-src 'self'; connect-src 'self' ${imagesOrigin}; ` +
        "manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'",
    );
    expect(csp).not.toContain('*');
    expect(csp).not.toContain('unsafe-inline');
    // The files' own Cache-Control decides: nothing in the key but the path.
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        MinTTL: 0,
        DefaultTTL: 0,
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({ CookiesConfig: { CookieBehavior: 'none' } }),
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::Function', { FunctionConfig: { Runtime: 'cloudfront-js-2.0' } });
  });

  it("gives the images bucket one CORS rule: POST from the console's origin (the distribution) only", () => {
    // Put by PutBucketCors after the bucket and the distribution exist (the CSP names the bucket: a property would be a cycle).
    const bucketId = stack.getLogicalId(images.bucket.node.defaultChild as CfnBucket);
    expect(template.toJSON().Resources[bucketId].Properties.CorsConfiguration).toBeUndefined();
    const calls = Object.values(template.findResources('Custom::AWS'));
    expect(calls).toHaveLength(1);
    const distributionId = Object.keys(template.findResources('AWS::CloudFront::Distribution'))[0]!;
    expect(JSON.parse(flatten(calls[0]!.Properties.Create))).toEqual({
      service: 'S3',
      action: 'PutBucketCors',
      parameters: {
        Bucket: `<${bucketId}>`,
        CORSConfiguration: { CORSRules: [{ AllowedOrigins: [`https://<${distributionId}.DomainName>`], AllowedMethods: ['POST'], MaxAgeSeconds: 3000 }] },
      },
      physicalResourceId: { id: `<${bucketId}>-console-cors` },
    });
    expect(flatten(calls[0]!.Properties.Create)).toBe(flatten(calls[0]!.Properties.Update));
    expect(JSON.parse(flatten(calls[0]!.Properties.Delete))).toMatchObject({ action: 'DeleteBucketCors', parameters: { Bucket: `<${bucketId}>` } });
    // Its function may put this bucket's CORS and nothing else.
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) => policy.Properties.PolicyDocument.Statement);
    expect(statements.filter((statement: any) => JSON.stringify(statement.Action).includes('PutBucketCORS'))).toEqual([
      { Action: 's3:PutBucketCORS', Effect: 'Allow', Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] } },
    ]);
  });

  it('deploys the hashed assets immutable and index.html and config.json no-cache, under console/', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).map((resource) => resource.Properties);
    expect(deployments).toHaveLength(2);
    const [assets, documents] = deployments;
    expect(assets).toMatchObject({
      DestinationBucketKeyPrefix: 'console/',
      Prune: false,
      SystemMetadata: { 'cache-control': CONSOLE_CACHE_CONTROL.hashedAsset },
    });
    expect(documents).toMatchObject({
      DestinationBucketKeyPrefix: 'console/',
      Prune: false,
      SystemMetadata: { 'cache-control': CONSOLE_CACHE_CONTROL.document },
    });
    // The build's asset and config.json's (Source.jsonData): two sources for the documents.
    expect(documents.SourceObjectKeys).toHaveLength(2);
    expect(assets.SourceObjectKeys).toHaveLength(1);
  });

  it('leaves cdk-nag nothing unacknowledged', () => {
    for (const pack of [new AwsSolutionsChecks(), new ServerlessChecks()]) {
      const report = pack.validateScope(stack);
      const findings = report.violations.flatMap((violation) =>
        violation.violatingResources.map((resource) => `${violation.ruleName} at ${resource.resourceLogicalId}`),
      );
      expect(findings, `${pack.readPackName} findings`).toEqual([]);
    }
  });
});
