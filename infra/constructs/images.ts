import { Duration, Names, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { IMAGE_KEY_PREFIX, UPLOAD_KEY_PREFIX } from '#shared/images/store.ts';
import { consoleUploadCorsRule } from '#shared/http/console-headers.ts';
import { acknowledgeCdkProvidedFunction } from './cdk-provided-functions.ts';
import { PRIVATE_BUCKET } from './private-bucket.ts';

export interface ImageStoreProps {
  /** The functions of the image routes (`readsImages` in shared/routes.ts): the only ones that may read. */
  readers: readonly LambdaFunction[];
  /** The functions that sign presigned uploads (`signsUploads`): `s3:PutObject` on the uploads prefix only. @default none */
  uploadSigners?: readonly LambdaFunction[];
}

/** The one S3 action the image routes need: signing a GET only works if the signer may GET. */
export const IMAGE_READ_ACTION = 's3:GetObject';
/** The one S3 action a presigned upload needs: S3 checks the POST against the signer's permission. */
export const UPLOAD_SIGN_ACTION = 's3:PutObject';

/** One S3 object action a function gets on the keys under a prefix, and why the prefix's wildcard is acceptable. */
interface PrefixGrant {
  action: string;
  prefix: string;
  reason: string;
}

/**
 * The image store (shared/images/store.ts): a private bucket. Encrypted at rest (SSE-S3: signed URLs
 * need no key grant), public access blocked, TLS required (enforceSSL), objects owned by the bucket
 * (no ACLs), kept when the stack is deleted (RETAIN: operators' uploads are not rebuilt by a deploy).
 * Each image function gets `s3:GetObject` on the image keys only, and IMAGES_BUCKET; the upload route may only sign a
 * POST under uploads/ (`s3:PutObject` there), and the processing function (image-processing.ts) writes the variants;
 * the operators' CLI uploads with their own credentials.
 */
export class ImageStore extends Construct {
  public readonly bucket: Bucket;
  /**
   * The bucket's origin as browsers reach it: virtual-hosted and regional, the address the SDK signs presigned
   * POSTs and GETs with (shared/images/store.ts), so the console's CSP allows exactly it (infra/constructs/console-site.ts).
   */
  public readonly origin: string;

  public constructor(scope: Construct, id: string, { readers, uploadSigners = [] }: ImageStoreProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Bucket', {
      ...PRIVATE_BUCKET,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
    const stack = Stack.of(this);
    this.origin = `https://${this.bucket.bucketName}.s3.${stack.region}.${stack.urlSuffix}`;
    const grants: readonly (PrefixGrant & { to: readonly LambdaFunction[] })[] = [
      {
        to: readers,
        action: IMAGE_READ_ACTION,
        prefix: IMAGE_KEY_PREFIX,
        reason: 'GetObject on the image keys of the image bucket only: S3 object permissions name keys by prefix.',
      },
      {
        to: uploadSigners,
        action: UPLOAD_SIGN_ACTION,
        prefix: UPLOAD_KEY_PREFIX,
        reason: 'PutObject on the uploads prefix only, through presigned POSTs whose policy names one key: S3 object permissions name keys by prefix.',
      },
    ];
    for (const { to, ...grant } of grants) for (const fn of to) this.grantUnderPrefix(fn, grant);
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Reads are signed GETs of public pictures (logged by the API stage when the redirect is made); writes are operators with CloudTrail. Access logs would be a second bucket for no new information.',
    });
  }

  /**
   * `action` on the keys under `prefix` for `fn`, and IMAGES_BUCKET. Object keys are the resource of S3's object
   * actions: the prefix is as narrow as it gets, and cdk-nag's wildcard finding is acknowledged with `reason`.
   */
  private grantUnderPrefix(fn: LambdaFunction, { action, prefix, reason }: PrefixGrant): void {
    fn.addToRolePolicy(new PolicyStatement({ actions: [action], resources: [this.bucket.arnForObjects(`${prefix}*`)] }));
    fn.addEnvironment('IMAGES_BUCKET', this.bucket.bucketName);
    // cdk-nag names the bucket as the function's stack sees it: by logical id, or by the parameter a nested stack receives.
    const bucket = this.bucket.node.defaultChild as CfnBucket;
    const arn = Stack.of(fn) === Stack.of(this.bucket) ? `${Stack.of(this.bucket).getLogicalId(bucket)}.Arn` : `referenceto${Names.uniqueId(bucket)}Arn`;
    Validations.of(fn.role!).acknowledge({ id: `AwsSolutions-IAM5[Resource::<${arn}>/${prefix}*]`, reason });
  }

  /**
   * Lets the merchant console at `consoleOrigin` post pictures straight to the bucket (the presigned POST of
   * `.../image_uploads`) and read S3's answer: one CORS rule, POST from that origin only (shared/http/console-headers.ts).
   * Put by `s3:PutBucketCors` once the bucket and the distribution exist, not as the bucket's own CorsConfiguration:
   * the console's CSP (on the distribution) names this bucket and the rule names the distribution, which in one
   * template is a cycle. Nothing else sets this bucket's CORS (a CorsConfiguration here would replace the rule).
   */
  public allowConsoleUploads(consoleOrigin: string): AwsCustomResource {
    const rule = consoleUploadCorsRule(consoleOrigin);
    const put = {
      service: 'S3',
      action: 'PutBucketCors',
      parameters: {
        Bucket: this.bucket.bucketName,
        CORSConfiguration: {
          CORSRules: [{ AllowedOrigins: rule.allowedOrigins, AllowedMethods: [...rule.allowedMethods], MaxAgeSeconds: rule.maxAgeSeconds }],
        },
      },
      physicalResourceId: PhysicalResourceId.of(`${this.bucket.bucketName}-console-cors`),
    };
    const cors = new AwsCustomResource(this, 'ConsoleUploadsCors', {
      onCreate: put,
      onUpdate: put,
      onDelete: { service: 'S3', action: 'DeleteBucketCors', parameters: { Bucket: this.bucket.bucketName } },
      // PutBucketCors and DeleteBucketCors are both s3:PutBucketCORS, on this bucket only.
      policy: AwsCustomResourcePolicy.fromStatements([new PolicyStatement({ actions: ['s3:PutBucketCORS'], resources: [this.bucket.bucketArn] })]),
      installLatestAwsSdk: false,
    });
    // CDK runs AwsCustomResource calls with a function of its own (one per stack).
    acknowledgeCdkProvidedFunction(Stack.of(this), { idPrefix: 'AWS679f53fac002430cb0da5b7982bd2287', name: 'custom resource function', runtime: 'Node.js' });
    return cors;
  }
}
