import { existsSync } from 'node:fs';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { EventType, type Bucket, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import { API_FUNCTION_BUNDLING, ApiFunction, PROJECT_ROOT } from './api-function.ts';
import { acknowledgeCdkProvidedFunction } from './cdk-provided-functions.ts';
import { IMAGE_KEY_PREFIX, UPLOAD_KEY_PREFIX } from '#shared/images/store.ts';

/** The handler module of the processing (functions/location-image-uploads-process.ts). */
export const IMAGE_PROCESSING_HANDLER = 'location-image-uploads-process';
/** Left out of the bundle: sharp is native, and its linux-arm64 build is copied in beside it. */
export const IMAGE_PROCESSING_EXTERNAL_MODULES = ['sharp'] as const;
/** sharp's linux-arm64 build (sharp, @img/*), installed by `postinstall` (scripts/sharp-linux-arm64.mjs). */
export const SHARP_LINUX_ARM64_DIR = `${PROJECT_ROOT}.cache/sharp-linux-arm64`;
/** sharp decodes and resizes in memory, and Lambda gives CPU in proportion to memory. */
export const IMAGE_PROCESSING_MEMORY_MB = 1536;
/** Decoding and writing every variant of a large picture takes seconds, not the API's budget. */
export const IMAGE_PROCESSING_TIMEOUT = Duration.seconds(60);
/** A burst of uploads waits in Lambda's async queue instead of taking the account's concurrency. */
export const IMAGE_PROCESSING_CONCURRENCY = 5;
/** S3 actions of the processing: it reads then deletes the upload, and writes or deletes the variants. */
export const UPLOAD_ACTIONS = ['s3:GetObject', 's3:DeleteObject'] as const;
export const VARIANT_ACTIONS = ['s3:PutObject', 's3:DeleteObject'] as const;

export interface ImageProcessingProps {
  bucket: Bucket;
  table: ITable;
}

/**
 * The processing of uploaded pictures: the bucket's ObjectCreated events under uploads/ invoke one arm64
 * function that bundles everything but sharp, whose linux-arm64 build (native) is copied into the asset
 * from .cache/sharp-linux-arm64. Asynchronous invocations that fail every retry go to a dead-letter queue.
 */
export class ImageProcessing extends Construct {
  public readonly function: ApiFunction;
  public readonly deadLetters: Queue;

  public constructor(scope: Construct, id: string, { bucket, table }: ImageProcessingProps) {
    super(scope, id);
    if (!existsSync(`${SHARP_LINUX_ARM64_DIR}/node_modules/@img/sharp-linux-arm64/package.json`))
      throw new Error(`sharp's linux-arm64 build is missing from ${SHARP_LINUX_ARM64_DIR}: run \`npm install\` (its postinstall fetches it).`);

    this.deadLetters = new Queue(this, 'DeadLetters', { retentionPeriod: Duration.days(14), enforceSSL: true, encryption: QueueEncryption.SQS_MANAGED });
    Validations.of(this.deadLetters).acknowledge(
      { id: 'AwsSolutions-SQS3', reason: 'This queue is itself a dead-letter queue; it needs none of its own.' },
      { id: 'Serverless-SQSRedrivePolicy', reason: 'This queue is itself a dead-letter queue; nothing redrives from it.' },
    );

    this.function = new ApiFunction(this, 'Function', {
      handlerName: IMAGE_PROCESSING_HANDLER,
      handler: 's3Handler',
      memorySize: IMAGE_PROCESSING_MEMORY_MB,
      timeout: IMAGE_PROCESSING_TIMEOUT,
      reservedConcurrentExecutions: IMAGE_PROCESSING_CONCURRENCY,
      deadLetterQueue: this.deadLetters,
      bundling: {
        externalModules: [...API_FUNCTION_BUNDLING.externalModules, ...IMAGE_PROCESSING_EXTERNAL_MODULES],
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (_inputDir: string, outputDir: string) => [`cp -R "${SHARP_LINUX_ARM64_DIR}/node_modules" "${outputDir}/node_modules"`],
        },
      },
    });
    this.function.bindTable({ table, accessMode: 'RW' });
    this.function.addEnvironment('IMAGES_BUCKET', bucket.bucketName);
    this.function.addToRolePolicy(new PolicyStatement({ actions: [...UPLOAD_ACTIONS], resources: [bucket.arnForObjects(`${UPLOAD_KEY_PREFIX}*`)] }));
    this.function.addToRolePolicy(new PolicyStatement({ actions: [...VARIANT_ACTIONS], resources: [bucket.arnForObjects(`${IMAGE_KEY_PREFIX}*`)] }));
    const bucketArn = `${Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnBucket)}.Arn`;
    for (const prefix of [UPLOAD_KEY_PREFIX, IMAGE_KEY_PREFIX])
      Validations.of(this.function.role!).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${bucketArn}>/${prefix}*]`,
        reason: 'The processing reads and deletes uploads and writes the variants: S3 object permissions name keys by prefix.',
      });

    bucket.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(this.function), { prefix: UPLOAD_KEY_PREFIX });
    // CDK puts the bucket's notifications in place with a function of its own (BucketNotificationsHandler).
    acknowledgeCdkProvidedFunction(Stack.of(this), {
      idPrefix: 'BucketNotificationsHandler',
      name: 'bucket notifications function',
      runtime: 'Python',
      ownFindings: [
        {
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason: "CDK's bucket notifications function may s3:PutBucketNotification on any bucket: CDK writes its policy.",
        },
      ],
    });
  }

  /** An alarm (to `topic`, and its recovery) when an upload's event failed every retry (docs/operations.md). */
  public alarmTo(topic: ITopic): Alarm {
    const alarm = new Alarm(this, 'DeadLettersDepth', {
      alarmDescription: 'Messages in the image processing dead-letter queue: uploads whose processing failed every retry (docs/operations.md).',
      metric: this.deadLetters.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(topic));
    alarm.addOkAction(new SnsAction(topic));
    return alarm;
  }
}
