import { App } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { LoyaltyApiStack } from '../../infra/stack.ts';
import { TABLE_WRITE_ACTIONS } from '../../infra/constructs/api-function.ts';
import {
  COMPLETION_STATES,
  COMPLETION_TASK_EXPORT,
  COMPLETION_TASK_HANDLER,
  COMPLETION_TASK_RETRY,
  REJECT_RETRY,
} from '../../infra/constructs/order-ahead-completion-workflow.ts';
import { resolveTokens, synthesizeWorkflow } from '../../scripts/local/workflow-definition.ts';
import { COMPLETION_TIMEOUT_SECONDS, PROVIDER_CUTOFF_SECONDS, PROVIDER_POLL_SECONDS } from '#shared/domain/order-ahead/orders.ts';
import { routes } from '#shared/routes.ts';
import { SYNTH_TIMEOUT_MS, synthesizedTemplates, type SynthesizedTemplates } from '../support/templates.ts';

type Resource = { Type: string; Properties: Record<string, any> };

const orderAheadRoutes = routes.filter((route) => /order_ahead|upsells/.test(route.path));

let stack: LoyaltyApiStack;
let synthesized: SynthesizedTemplates;
let resources: Record<string, Resource>;
let machineId: string;
let definition: Record<string, any>;

const logicalIdOf = (construct: IConstruct) => synthesized.logicalIdOf(construct);
const stepsFunctionId = () => logicalIdOf(stack.orderAheadCompletionWorkflow.completionFunction);
const roleOf = (logicalId: string): string =>
  resources[logicalId]!.Properties.Role?.['Fn::GetAtt']?.[0] ?? resources[logicalId]!.Properties.RoleArn['Fn::GetAtt'][0];
const actionsOf = (statement: any): string[] => [statement.Action].flat();
function statementsOfRole(roleId: string): any[] {
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: any) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new LoyaltyApiStack(app, 'LoyaltyApi', { routes: orderAheadRoutes });
  // The parent and its nested route stacks as one (test/support/templates.ts).
  synthesized = synthesizedTemplates(stack);
  resources = synthesized.resources as Record<string, Resource>;
  machineId = logicalIdOf(stack.orderAheadCompletionWorkflow.stateMachine);
  definition = JSON.parse(resolveTokens(resources[machineId]!.Properties.DefinitionString, resources));
}, SYNTH_TIMEOUT_MS);

describe('order-ahead completion state machine', () => {
  it('is a Standard workflow with its own timeout, full logging (no execution data) and X-Ray tracing', () => {
    const machine = resources[machineId]!.Properties;
    expect(machine.StateMachineType).toBe('STANDARD');
    expect(definition.TimeoutSeconds).toBe(COMPLETION_TIMEOUT_SECONDS);
    // The provider's cut-off and a rejection's retries fit inside it.
    expect(COMPLETION_TIMEOUT_SECONDS).toBeGreaterThan(PROVIDER_CUTOFF_SECONDS * 2);
    expect(machine.LoggingConfiguration).toMatchObject({ Level: 'ALL', IncludeExecutionData: false });
    expect(machine.LoggingConfiguration.Destinations).toHaveLength(1);
    expect(machine.TracingConfiguration).toEqual({ Enabled: true });
    expect(definition.QueryLanguage ?? 'JSONPath').toBe('JSONPath');
  });

  it('charges, forwards, waits for the provider in a loop, and rejects from every failure', () => {
    const states = definition.States;
    expect(definition.StartAt).toBe(COMPLETION_STATES.charge);
    expect(states[COMPLETION_STATES.charge]).toMatchObject({
      Type: 'Task',
      Next: COMPLETION_STATES.charged,
      ResultPath: '$.charge',
      Parameters: { step: 'charge', 'order_uuid.$': '$.order_uuid' },
    });
    expect(states[COMPLETION_STATES.charged]).toEqual({
      Type: 'Choice',
      Choices: [{ Variable: '$.charge.charged', BooleanEquals: true, Next: COMPLETION_STATES.forward }],
      Default: COMPLETION_STATES.reject,
    });
    expect(states[COMPLETION_STATES.forward]).toMatchObject({ Type: 'Task', Next: COMPLETION_STATES.answered, Parameters: { step: 'forward' } });
    expect(states[COMPLETION_STATES.answered]).toEqual({
      Type: 'Choice',
      Choices: [
        { Variable: '$.provider.status', StringEquals: 'accepted', Next: COMPLETION_STATES.completed },
        { Variable: '$.provider.status', StringEquals: 'pending', Next: COMPLETION_STATES.wait },
      ],
      Default: COMPLETION_STATES.reject,
    });
    expect(states[COMPLETION_STATES.wait]).toEqual({ Type: 'Wait', Seconds: PROVIDER_POLL_SECONDS, Next: COMPLETION_STATES.check });
    expect(states[COMPLETION_STATES.check]).toMatchObject({ Type: 'Task', Next: COMPLETION_STATES.answered, Parameters: { step: 'check' } });
    expect(states[COMPLETION_STATES.completed]).toEqual({ Type: 'Succeed' });
    // The reject step reads the reason from the whole state (the decline, the provider's answer or the failure).
    expect(states[COMPLETION_STATES.reject]).toMatchObject({ Type: 'Task', End: true, Parameters: { step: 'reject', 'state.$': '$' } });
    expect(states[COMPLETION_STATES.reject].Catch).toBeUndefined();
    expect(states[COMPLETION_STATES.reject].Retry).toEqual([
      expect.objectContaining({ ErrorEquals: ['States.ALL'], MaxAttempts: REJECT_RETRY.maxAttempts, MaxDelaySeconds: 30, JitterStrategy: 'FULL' }),
    ]);
    for (const name of [COMPLETION_STATES.charge, COMPLETION_STATES.forward, COMPLETION_STATES.check]) {
      expect(states[name].Catch, name).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: COMPLETION_STATES.reject }]);
      expect(states[name].Retry, name).toEqual([
        expect.objectContaining({
          ErrorEquals: ['States.TaskFailed', 'States.Timeout'],
          MaxAttempts: COMPLETION_TASK_RETRY.maxAttempts,
          IntervalSeconds: 1,
          BackoffRate: 2,
          MaxDelaySeconds: 16,
        }),
      ]);
    }
    for (const state of Object.values<any>(states).filter((candidate) => candidate.Type === 'Task'))
      expect(state.Resource).toContain(`function:${stepsFunctionId()}`);
  });

  it('its role may invoke only the steps function, and write logs and traces', () => {
    const statements = statementsOfRole(roleOf(machineId));
    const invokes = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('lambda:')));
    expect(invokes.length).toBeGreaterThan(0);
    for (const statement of invokes) {
      expect(actionsOf(statement)).toEqual(['lambda:InvokeFunction']);
      for (const resource of [statement.Resource].flat()) expect(JSON.stringify(resource)).toContain(stepsFunctionId());
    }
    const others = statements
      .flatMap(actionsOf)
      .filter((action) => !action.startsWith('lambda:') && !action.startsWith('logs:') && !action.startsWith('xray:'));
    expect(others).toEqual([]);
  });

  it('the steps function is no HTTP handler, may write the table and knows the cut-off, and may not start executions', () => {
    const fn = resources[stepsFunctionId()]!.Properties;
    expect(fn.Handler).toBe(`index.${COMPLETION_TASK_EXPORT}`);
    expect(stack.orderAheadCompletionWorkflow.completionFunction.handlerName).toBe(COMPLETION_TASK_HANDLER);
    expect(fn.Environment.Variables.ORDER_AHEAD_PROVIDER_CUTOFF_SECONDS).toBe(String(PROVIDER_CUTOFF_SECONDS));
    const actions = statementsOfRole(roleOf(stepsFunctionId())).flatMap(actionsOf);
    expect(new Set(actions.filter((action) => action.startsWith('dynamodb:')))).toEqual(new Set(TABLE_WRITE_ACTIONS));
    // Besides the table: its own log group and traces, nothing else (no states:, no other service).
    expect(actions.filter((action) => !/^(dynamodb|logs|xray):/.test(action))).toEqual([]);
  });
});

describe('starting completions', () => {
  it('only the completion route may StartExecution on it, and it knows the ARN', () => {
    const starters = orderAheadRoutes.filter((route) => route.startsCompletion).map((route) => route.handler);
    expect(starters).toEqual(['order-ahead-orders-complete']);
    const starterRole = roleOf(logicalIdOf(stack.functions.get(starters[0]!)!));
    expect(resources[logicalIdOf(stack.functions.get(starters[0]!)!)]!.Properties.Environment.Variables.COMPLETION_STATE_MACHINE_ARN).toEqual({
      Ref: machineId,
    });
    const grants = Object.values(resources).filter(
      (resource) =>
        resource.Type === 'AWS::IAM::Policy' &&
        resource.Properties.PolicyDocument.Statement.some((statement: any) => JSON.stringify(statement.Resource) === JSON.stringify({ Ref: machineId })),
    );
    expect(grants.flatMap((policy) => policy.Properties.Roles.map((role: any) => role.Ref))).toEqual([starterRole]);
    expect(statementsOfRole(starterRole).filter((statement) => actionsOf(statement).some((action) => action.startsWith('states:')))).toEqual([
      expect.objectContaining({ Effect: 'Allow', Action: 'states:StartExecution', Resource: { Ref: machineId } }),
    ]);
  });
});

describe('the local completion state machine', () => {
  it('runs the definition synthesized from the construct (not a copy)', () => {
    const local = synthesizeWorkflow('completion');
    expect(local.definition).toEqual(definition);
    expect(Object.keys(local.tasks).sort()).toEqual(
      [COMPLETION_STATES.charge, COMPLETION_STATES.check, COMPLETION_STATES.forward, COMPLETION_STATES.reject].sort(),
    );
    for (const target of Object.values(local.tasks)) expect(target).toEqual({ handlerName: COMPLETION_TASK_HANDLER, exportName: COMPLETION_TASK_EXPORT });
  });
});
