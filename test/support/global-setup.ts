import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../scripts/local/dynamodb-local.ts';
import { startSesLocal } from '../../scripts/local/ses.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3Local } from '../../scripts/local/s3.ts';
import { ensureConsoleBuilt } from '../../scripts/console-build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    sesEndpoint: string;
    s3Endpoint: string;
  }
}

/**
 * One DynamoDB Local (in memory) for the whole run, every test file making its own fresh table in it;
 * one SES v2 emulator, whose mailbox tests read (each test mails its own unique addresses); and one
 * s3rver for images, its objects in a temporary directory removed at the end.
 */
export default async function setup(project: TestProject) {
  const s3Directory = mkdtempSync(join(tmpdir(), 'loyalty-s3-'));
  // The merchant console's files (test/console), rebuilt only when a source is newer than console/dist.
  const [dynamo, ses, s3] = await Promise.all([startDynamoDbLocal(), startSesLocal(), startS3Local({ directory: s3Directory }), ensureConsoleBuilt()]);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('sesEndpoint', ses.endpoint);
  project.provide('s3Endpoint', s3.endpoint);
  return async () => {
    await Promise.all([dynamo.stop(), ses.stop(), s3.stop()]);
    rmSync(s3Directory, { recursive: true, force: true });
  };
}
