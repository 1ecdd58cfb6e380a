import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../scripts/local/dynamodb-local.ts';
import { startSesLocal } from '../../scripts/local/ses.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    sesEndpoint: string;
  }
}

/**
 * One DynamoDB Local (in memory) for the whole run, every test file making its own fresh table in it;
 * and one SES v2 emulator, whose mailbox tests read (each test mails its own unique addresses).
 */
export default async function setup(project: TestProject) {
  const [dynamo, ses] = await Promise.all([startDynamoDbLocal(), startSesLocal()]);
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('sesEndpoint', ses.endpoint);
  return async () => {
    await Promise.all([dynamo.stop(), ses.stop()]);
  };
}
