/**
 * The image bucket and its grants (infra/constructs/images.ts), in a stack of their own and in the API
 * stack: private (public access blocked, bucket-owner objects), encrypted, TLS only, retained; only the
 * image routes' functions may read, and only `s3:GetObject` on the image keys.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_READ_ACTION, ImageStore, UPLOAD_SIGN_ACTION } from '../../infra/constructs/images.ts';
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
