import { paginateQuery, paginateScan, type QueryCommandInput, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.ts';

/** Every item a Query returns, following LastEvaluatedKey with the SDK's own paginator. */
export async function queryAll(input: QueryCommandInput): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  for await (const page of paginateQuery({ client: db() }, input)) items.push(...(page.Items ?? []));
  return items;
}

/** Every item a Scan returns: for operators' tools (the audit), never a request path. */
export async function scanAll(input: ScanCommandInput): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  for await (const page of paginateScan({ client: db() }, input)) items.push(...(page.Items ?? []));
  return items;
}
