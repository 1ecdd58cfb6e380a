import { BlockPublicAccess, BucketEncryption, ObjectOwnership, type BucketProps } from 'aws-cdk-lib/aws-s3';

/**
 * What every bucket of the stack is: encrypted at rest (SSE-S3: signed URLs and CloudFront's OAC need no key
 * grant), public access blocked, TLS required, objects owned by the bucket (no ACLs). Each adds its removal policy.
 */
export const PRIVATE_BUCKET = {
  encryption: BucketEncryption.S3_MANAGED,
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  enforceSSL: true,
  objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
} as const satisfies BucketProps;
