/**
 * A function's cold twin (bench/cold-start/cold-twin.ts): bundled as the baseline is (bench/harness/baseline-handler.ts: the
 * functions' esbuild options, the same db() client), never deployed. Its first request reads the recording its
 * event names (the function's DynamoDB calls of the same round, writes already sent to the scratch table) and
 * makes those calls again, group after group, a group's calls at once (bench/floors/twin.ts replay), each a new command
 * of the class the function sent with the recorded input. A call that fails (a write's condition) is waited for
 * and counts as the round trip it is. A recording without calls (a function that makes none): an empty request.
 */
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';
import * as documentCommands from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { db } from '#shared/db/client.ts';
import { replay, type CallRecording } from '../floors/twin.ts';
import type { ProbeRecording } from './cold-twin.ts';

const commandClasses = documentCommands as unknown as Record<string, NonNullable<CallRecording[number][number]['command']>>;

export const handler = async (event: { recording: string }): Promise<APIGatewayProxyStructuredResultV2> => {
  const recording = (deserialize(readFileSync(event.recording)) as ProbeRecording).map((group) =>
    group.map(({ command, operation, input }) => {
      const commandClass = commandClasses[command];
      // Only document client commands go through db(): anything else is a recording this twin cannot stand in for.
      if (!commandClass) throw new Error(`the cold twin has no command ${command}`);
      return { operation, command: commandClass, input };
    }),
  );
  await replay(recording, (command) =>
    db()
      .send(command as never)
      .catch(() => undefined),
  );
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ replayed: recording.flat().length }) };
};
