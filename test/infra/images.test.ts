/**
 * The image bucket and its grants (infra/constructs/images.ts), in a stack of their own and in the API
 * stack: private (public access blocked, bucket-owner objects), encrypted, TLS only, retained; only the
 * image routes' functions may read, and only `s3:GetObject` on the image keys.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Code, Function as LambdaFunction, Runtime, type CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_READ_ACTION, ImageStore, UPLOAD_SIGN_ACTION } from '../../infra/constructs/images.ts';
import {
  IMAGE_PROCESSING_CONCURRENCY,
  IMAGE_PROCESSING_MEMORY_MB,
  ImageProcessing,
  UPLOAD_ACTIONS,
  VARIANT_ACTIONS,
} from '../../infra/constructs/image-processing.ts';
import { routes } from '#shared/routes.ts';

type Resource = { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

let stack: Stack;
let store: ImageStore;
let resources: Record<string, Resource>;
let reader: LambdaFunction;
let other: LambdaFunction;
let signer: LambdaFunction;

beforeAll(() => {
  stack = new Stack(new App(), 'ImagesUnderTest');
  const fn = (id: string) =>
    new LambdaFunction(stack, id, { runtime: Runtime.NODEJS_24_X, handler: 'index.handler', code: Code.fromInline('export const handler = async () => ({})') });
  reader = fn('Reader');
  other = fn('Other');
  signer = fn('Signer');
  store = new ImageStore(stack, 'Images', { readers: [reader], uploadSigners: [signer] });
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
});

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

/** Every IAM statement attached to a function's role. */
function statementsOf(fn: LambdaFunction): { Action: string | string[]; Resource: unknown; Effect: string }[] {
  const roleId = stack.getLogicalId(fn.role!.node.defaultChild as never);
  return ofType('AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties!.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement);
}

describe('the image bucket', () => {
  it('is private, encrypted, owner-enforced and retained', () => {
    const buckets = ofType('AWS::S3::Bucket');
    expect(buckets).toHaveLength(1);
    const [, bucket] = buckets[0]!;
    expect(bucket.Properties!.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties!.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    expect(bucket.Properties!.OwnershipControls.Rules[0].ObjectOwnership).toBe('BucketOwnerEnforced');
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.UpdateReplacePolicy).toBe('Retain');
  });

  it('refuses every request without TLS (enforceSSL bucket policy)', () => {
    const policies = ofType('AWS::S3::BucketPolicy');
    expect(policies).toHaveLength(1);
    const statements = policies[0]![1].Properties!.PolicyDocument.Statement as {
      Effect: string;
      Action: string;
      Condition?: Record<string, Record<string, string>>;
    }[];
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    // No statement grants anyone anything: the only readers are the functions' roles.
    expect(statements.filter((statement) => statement.Effect === 'Allow')).toEqual([]);
  });

  it('lets the image functions GetObject the image keys and nothing else; other functions get nothing', () => {
    const s3Statements = statementsOf(reader).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')));
    expect(s3Statements).toHaveLength(1);
    expect(s3Statements[0]!.Action).toBe(IMAGE_READ_ACTION);
    expect(JSON.stringify(s3Statements[0]!.Resource)).toMatch(/\/images\/\*"\]\]\}$/);
    expect(statementsOf(other).some((statement) => JSON.stringify(statement).includes('s3:'))).toBe(false);
    const [, readerFn] = ofType('AWS::Lambda::Function').find(([id]) => id === stack.getLogicalId(reader.node.defaultChild as never))!;
    expect(readerFn.Properties!.Environment.Variables.IMAGES_BUCKET).toEqual({ Ref: stack.getLogicalId(store.bucket.node.defaultChild as never) });
  });

  it('lets the upload signers PutObject the uploads prefix and nothing else', () => {
    const s3Statements = statementsOf(signer).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')));
    expect(s3Statements).toHaveLength(1);
    expect(s3Statements[0]!.Action).toBe(UPLOAD_SIGN_ACTION);
    expect(JSON.stringify(s3Statements[0]!.Resource)).toMatch(/\/uploads\/\*"\]\]\}$/);
    expect(routes.filter((route) => route.signsUploads).map((route) => route.handler)).toEqual(['location-image-uploads-create']);
  });

  it('has no CORS rule of its own, and its origin is exactly the address the SDK signs uploads and pictures with', async () => {
    expect(ofType('AWS::S3::Bucket')[0]![1].Properties!.CorsConfiguration).toBeUndefined();
    // The console's CSP allows this origin (infra/constructs/console-site.ts): it must be the presigned POST's.
    const regional = new Stack(new App(), 'ImagesInARegion', { env: { account: '123456789012', region: 'eu-west-1' } });
    const placed = new ImageStore(regional, 'Images', { readers: [] });
    const bucketId = regional.getLogicalId(placed.bucket.node.defaultChild as never);
    const resolved = regional.resolve(placed.origin) as { 'Fn::Join': [string, unknown[]] };
    const origin = resolved['Fn::Join'][1]
      .map((part) =>
        typeof part === 'string'
          ? part
          : (part as { Ref: string }).Ref === bucketId
            ? 'images-bucket-1a2b3c'
            : (part as { Ref: string }).Ref === 'AWS::URLSuffix'
              ? 'amazonaws.com'
              : '?',
      )
      .join('');
    const { S3Client } = await import('@aws-sdk/client-s3');
    const { createPresignedPost } = await import('@aws-sdk/s3-presigned-post');
    const client = new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'example', secretAccessKey: 'example' } });
    const post = await createPresignedPost(client, { Bucket: 'images-bucket-1a2b3c', Key: 'uploads/example', Expires: 60 });
    expect(origin).toBe(new URL(post.url).origin);
    expect(origin).toBe('https://images-bucket-1a2b3c.s3.eu-west-1.amazonaws.com');
    client.destroy();
  });

  it('leaves cdk-nag nothing unacknowledged about the bucket or the grant', () => {
    const report = new AwsSolutionsChecks().validateScope(stack);
    const ours = new Set([
      stack.getLogicalId(store.bucket.node.defaultChild as never),
      ...ofType('AWS::S3::BucketPolicy').map(([id]) => id),
      ...ofType('AWS::IAM::Policy').map(([id]) => id),
    ]);
    const findings = report.violations.flatMap((violation) =>
      violation.violatingResources
        .filter((resource) => ours.has(resource.resourceLogicalId ?? ''))
        .map((resource) => `${violation.ruleName} at ${resource.resourceLogicalId}`),
    );
    expect(findings).toEqual([]);
  });
});

describe('the route table', () => {
  it('marks exactly the image routes as readers, none of which writes or sends anything', () => {
    const readers = routes.filter((route) => route.readsImages);
    expect(readers.map((route) => route.path).sort()).toEqual(
      [
        '/v14/campaigns/{id}/image',
        '/v14/locations/{location_id}/image',
        '/v15/campaigns/{id}/icon',
        '/v15/locations/{location_id}/image',
        '/v15/order_ahead/menus/{menu_id}/items/{item_id}/image',
      ].sort(),
    );
    for (const route of readers) {
      expect(route.method).toBe('GET');
      expect(route.credential).toBe('none');
      expect(route.table).toBe('read');
      expect(route.sendsEmail).toBeFalsy();
    }
  });
});

describe('the image processing function', () => {
  let processingStack: Stack;
  let processing: ImageProcessing;
  let processingResources: Record<string, Resource>;
  let topic: Topic;
  let alarm: Alarm;

  beforeAll(() => {
    processingStack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'ImageProcessingUnderTest');
    const table = new Table(processingStack, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    });
    const bucketStore = new ImageStore(processingStack, 'Images', { readers: [] });
    processing = new ImageProcessing(processingStack, 'ImageProcessing', { bucket: bucketStore.bucket, table });
    topic = new Topic(processingStack, 'Alarms', { enforceSSL: true });
    alarm = processing.alarmTo(topic);
    processingResources = Template.fromStack(processingStack).toJSON().Resources as Record<string, Resource>;
  });

  const functionResource = () => processingResources[processingStack.getLogicalId(processing.function.node.defaultChild as never)]!;

  it('runs s3Handler on arm64 with the memory, timeout and concurrency sharp needs, and its bucket and table', () => {
    const { Properties } = functionResource();
    expect(Properties!.Architectures).toEqual(['arm64']);
    expect(Properties!.Runtime).toBe('nodejs24.x');
    expect(Properties!.Handler).toBe('index.s3Handler');
    expect(Properties!.MemorySize).toBe(IMAGE_PROCESSING_MEMORY_MB);
    expect(Properties!.Timeout).toBe(60);
    expect(Properties!.ReservedConcurrentExecutions).toBe(IMAGE_PROCESSING_CONCURRENCY);
    expect(Properties!.Environment.Variables.IMAGES_BUCKET).toEqual({ Ref: expect.stringMatching(/^ImagesBucket/) });
    expect(Properties!.Environment.Variables.TABLE_NAME).toEqual({ Ref: expect.stringMatching(/^Table/) });
    expect(Properties!.DeadLetterConfig.TargetArn).toEqual({
      'Fn::GetAtt': [processingStack.getLogicalId(processing.deadLetters.node.defaultChild as never), 'Arn'],
    });
  });

  it('alarms to the given topic when an event reaches the dead-letter queue', () => {
    const { Properties } = processingResources[processingStack.getLogicalId(alarm.node.defaultChild as never)]!;
    const topicRef = { Ref: processingStack.getLogicalId(topic.node.defaultChild as never) };
    expect(Properties!.AlarmActions).toEqual([topicRef]);
    expect(Properties!.OKActions).toEqual([topicRef]);
    expect(Properties!.MetricName).toBe('ApproximateNumberOfMessagesVisible');
    expect(Properties!.Dimensions).toEqual([
      { Name: 'QueueName', Value: { 'Fn::GetAtt': [processingStack.getLogicalId(processing.deadLetters.node.defaultChild as never), 'QueueName'] } },
    ]);
    expect(Properties!.Threshold).toBe(1);
  });

  it('is invoked by ObjectCreated events under uploads/ only', () => {
    const notifications = Object.values(processingResources).filter((resource) => resource.Type === 'Custom::S3BucketNotifications');
    expect(notifications).toHaveLength(1);
    expect(notifications[0]!.Properties!.NotificationConfiguration).toEqual({
      LambdaFunctionConfigurations: [
        {
          Events: ['s3:ObjectCreated:*'],
          Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'uploads/' }] } },
          LambdaFunctionArn: { 'Fn::GetAtt': [processingStack.getLogicalId(processing.function.node.defaultChild as never), 'Arn'] },
        },
      ],
    });
  });

  it('may read and delete uploads, write and delete variants, and nothing else in S3', () => {
    const roleId = processingStack.getLogicalId(processing.function.role!.node.defaultChild as never);
    const statements = Object.values(processingResources)
      .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties!.Roles.some((role: { Ref: string }) => role.Ref === roleId))
      .flatMap((policy) => policy.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const s3 = statements.filter((statement) => [statement.Action].flat().some((action) => action.startsWith('s3:')));
    expect(s3.map((statement) => [[statement.Action].flat().sort(), JSON.stringify(statement.Resource).match(/\/(\w+)\/\*"\]\]\}$/)?.[1]])).toEqual([
      [['s3:DeleteObject', 's3:GetObject'], 'uploads'],
      [['s3:DeleteObject', 's3:PutObject'], 'images'],
    ]);
    expect([...UPLOAD_ACTIONS, ...VARIANT_ACTIONS]).not.toContain('s3:*');
  });

  it('leaves cdk-nag nothing unacknowledged, CDK’s notifications function included', () => {
    const report = new AwsSolutionsChecks().validateScope(processingStack);
    const findings = report.violations.flatMap((violation) =>
      violation.violatingResources.map((resource) => `${violation.ruleName} at ${resource.resourceLogicalId}`),
    );
    expect(findings).toEqual([]);
  });

  it('ships sharp’s linux-arm64 binary beside a bundle that leaves sharp external', { timeout: 120_000 }, () => {
    const outdir = mkdtempSync(join(tmpdir(), 'image-processing-'));
    try {
      const app = new App({ outdir });
      const stack = new Stack(app, 'ImageProcessingAsset');
      const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
      const bucketStore = new ImageStore(stack, 'Images', { readers: [] });
      const built = new ImageProcessing(stack, 'ImageProcessing', { bucket: bucketStore.bucket, table });
      app.synth();
      const code = (built.function.node.defaultChild as CfnFunction).code as { s3Key: string };
      const assetDir = join(outdir, `asset.${code.s3Key.replace(/\.zip$/, '')}`);
      const binaries = readdirSync(join(assetDir, 'node_modules/@img/sharp-linux-arm64/lib'));
      expect(binaries).toEqual([expect.stringMatching(/^sharp-linux-arm64(-\d+\.\d+\.\d+)?\.node$/)]);
      expect(existsSync(join(assetDir, 'node_modules/@img/sharp-libvips-linux-arm64/package.json'))).toBe(true);
      expect(readdirSync(join(assetDir, 'node_modules/@img')).filter((name) => /x64|darwin|win32|wasm/.test(name))).toEqual([]);
      const bundle = readFileSync(join(assetDir, 'index.mjs'), 'utf8');
      expect(bundle).toMatch(/from"sharp"/);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
});
