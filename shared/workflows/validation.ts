/**
 * The port through which the start route begins an order's validation.
 * - In AWS: StartExecution of the Express state machine named by STATE_MACHINE_ARN (asynchronous:
 *   the call returns once the execution is accepted).
 * - Locally: the local runner (scripts/local/workflows.ts) registers itself in this process (the local
 *   gateway runs handlers in-process) and runs the same definition in aws-local-stepfunctions,
 *   without waiting for it.
 */
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { requireEnv } from '#shared/env.ts';

export interface ValidationInput {
  order_uuid: string;
}

export type LocalValidationRunner = (input: ValidationInput) => void;

/** On globalThis so every module instance in the process (test runners may load two) sees it. */
const LOCAL_RUNNER = Symbol.for('loyalty-api.order-ahead.local-validation-runner');
type RunnerHolder = { [LOCAL_RUNNER]?: LocalValidationRunner };

export function registerLocalValidationRunner(runner: LocalValidationRunner | undefined): void {
  (globalThis as RunnerHolder)[LOCAL_RUNNER] = runner;
}

let client: SFNClient | undefined;

export async function startValidation(input: ValidationInput): Promise<void> {
  const local = (globalThis as RunnerHolder)[LOCAL_RUNNER];
  if (local) {
    local(input);
    return;
  }
  client ??= new SFNClient({});
  await client.send(
    new StartExecutionCommand({
      stateMachineArn: requireEnv('STATE_MACHINE_ARN'),
      // Execution names identify the order in the console and logs.
      name: `order-${input.order_uuid}`,
      input: JSON.stringify(input),
    }),
  );
}
