import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { LoyaltyApiStack } from '../../infra/stack.ts';
import { TABLE_WRITE_ACTIONS } from '../../infra/constructs/api-function.ts';
import { TASK_RETRY, VALIDATION_TASK_EXPORT, WORKFLOW_STATES } from '../../infra/constructs/order-ahead-workflow.ts';
import { resolveTokens, synthesizeWorkflow } from '../../scripts/local/workflow-definition.ts';
import { VALIDATION_TIMEOUT_SECONDS } from '#shared/domain/order-ahead/orders.ts';
import { routes } from '#shared/routes.ts';
import { SYNTH_TIMEOUT_MS, synthesizedTemplates, type SynthesizedTemplates } from '../support/templates.ts';

type Resource = { Type: string; Properties: Record<string, any> };

// The order-ahead routes only: the template under test is the workflow and its wiring.
const orderAheadRoutes = routes.filter((route) => /order_ahead|upsells/.test(route.path));
const starters = orderAheadRoutes.filter((route) => route.startsValidation).map((route) => route.handler);

let stack: LoyaltyApiStack;
let synthesized: SynthesizedTemplates;
let template: Template;
let resources: Record<string, Resource>;
let machineId: string;
let definition: Record<string, any>;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new LoyaltyApiStack(app, 'LoyaltyApi', { routes: orderAheadRoutes });
  // The parent and its nested route stacks as one (test/support/templates.ts).
  synthesized = synthesizedTemplates(stack);
  template = synthesized.merged;
  resources = synthesized.resources as Record<string, Resource>;
  const machines = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::StepFunctions::StateMachine');
  // Validation, and completion (test/order-ahead/completion-template.unit.test.ts).
  expect(machines).toHaveLength(2);
  machineId = logicalIdOf(stack.orderAheadWorkflow.stateMachine);
  definition = JSON.parse(resolveTokens(resources[machineId]!.Properties.DefinitionString, resources));
}, SYNTH_TIMEOUT_MS);

const logicalIdOf = (construct: IConstruct) => synthesized.logicalIdOf(construct);
const validationFunctionId = () => logicalIdOf(stack.orderAheadWorkflow.validationFunction);

function statementsOfRole(roleId: string): any[] {
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && resource.Properties.Roles.some((role: any) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement);
}
const actionsOf = (statement: any): string[] => [statement.Action].flat();

describe('order-ahead state machine', () => {
  it('is an Express workflow with a timeout and logging', () => {
    template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineType: 'EXPRESS',
      LoggingConfiguration: Match.objectLike({ Level: 'ERROR', Destinations: Match.anyValue() }),
    });
    expect(definition.TimeoutSeconds).toBe(VALIDATION_TIMEOUT_SECONDS);
    expect(definition.QueryLanguage ?? 'JSONPath').toBe('JSONPath');
  });

  it('validates in a Task with bounded Retry and a Catch, then a Choice records the outcome', () => {
    const states = definition.States;
    expect(definition.StartAt).toBe(WORKFLOW_STATES.validate);
    const validate = states[WORKFLOW_STATES.validate];
    expect(validate).toMatchObject({ Type: 'Task', Next: WORKFLOW_STATES.choice, Parameters: { step: 'validate', 'order_uuid.$': '$.order_uuid' } });
    expect(validate.Retry).toEqual([
      expect.objectContaining({
        ErrorEquals: ['States.TaskFailed', 'States.Timeout'],
        MaxAttempts: TASK_RETRY.maxAttempts,
        BackoffRate: 2,
        IntervalSeconds: 1,
        MaxDelaySeconds: 4,
      }),
    ]);
    expect(validate.Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.failure', Next: WORKFLOW_STATES.recordFailure }]);

    const choice = states[WORKFLOW_STATES.choice];
    expect(choice).toEqual({
      Type: 'Choice',
      Choices: [{ Variable: '$.outcome.valid', BooleanEquals: true, Next: WORKFLOW_STATES.recordValid }],
      Default: WORKFLOW_STATES.recordInvalid,
    });
    expect(states[WORKFLOW_STATES.recordValid]).toMatchObject({
      Type: 'Task',
      End: true,
      Parameters: { step: 'record_valid', 'app_id.$': '$.outcome.app_id', 'priced.$': '$.outcome.priced' },
    });
    expect(states[WORKFLOW_STATES.recordInvalid]).toMatchObject({
      Type: 'Task',
      End: true,
      Parameters: { step: 'record_invalid', 'app_id.$': '$.outcome.app_id', 'errors.$': '$.outcome.errors' },
    });
    expect(states[WORKFLOW_STATES.recordFailure]).toMatchObject({ Type: 'Task', End: true, Parameters: { step: 'record_failure', 'failure.$': '$.failure' } });
    for (const state of Object.values<any>(states).filter((candidate) => candidate.Type === 'Task')) {
      expect(state.Retry).toHaveLength(1);
      expect(state.Resource).toContain(`function:${validationFunctionId()}`);
    }
  });

  it('invokes only the validation function (payload response only), whose export is not an HTTP handler', () => {
    const validationFunction = resources[validationFunctionId()]!;
    expect(validationFunction.Properties.Handler).toBe(`index.${VALIDATION_TASK_EXPORT}`);
    const roleId = resources[machineId]!.Properties.RoleArn['Fn::GetAtt'][0];
    const invokes = statementsOfRole(roleId).filter((statement) => actionsOf(statement).some((action) => action.startsWith('lambda:')));
    expect(invokes.length).toBeGreaterThan(0);
    for (const statement of invokes) {
      expect(actionsOf(statement)).toEqual(['lambda:InvokeFunction']);
      for (const resource of [statement.Resource].flat()) expect(JSON.stringify(resource)).toContain(validationFunctionId());
    }
    // Besides invoking: log delivery and X-Ray tracing (test/infra/observability.test.ts).
    const otherActions = statementsOfRole(roleId)
      .flatMap(actionsOf)
      .filter((action) => !/^(lambda|logs|xray):/.test(action));
    expect(otherActions).toEqual([]);
  });

  it('the validation function may write the table', () => {
    const roleId = resources[validationFunctionId()]!.Properties.Role['Fn::GetAtt'][0];
    const actions = statementsOfRole(roleId)
      .flatMap(actionsOf)
      .filter((action) => action.startsWith('dynamodb:'));
    expect(new Set(actions)).toEqual(new Set(TABLE_WRITE_ACTIONS));
  });
});

describe('starting executions', () => {
  it('the start route may StartExecution on this state machine only, and knows its ARN', () => {
    expect(starters).toEqual(['order-ahead-orders-create']);
    for (const handler of starters) {
      const fn = resources[logicalIdOf(stack.functions.get(handler)!)]!;
      expect(fn.Properties.Environment.Variables.STATE_MACHINE_ARN).toEqual({ Ref: machineId });
      const statements = statementsOfRole(fn.Properties.Role['Fn::GetAtt'][0]).filter((statement) =>
        actionsOf(statement).some((action) => action.startsWith('states:')),
      );
      expect(statements).toEqual([expect.objectContaining({ Effect: 'Allow', Action: 'states:StartExecution', Resource: { Ref: machineId } })]);
    }
  });

  it('no other function may start its executions', () => {
    const starterRoles = new Set(starters.map((handler) => resources[logicalIdOf(stack.functions.get(handler)!)]!.Properties.Role['Fn::GetAtt'][0]));
    const startingPolicies = Object.values(resources).filter(
      (resource) =>
        resource.Type === 'AWS::IAM::Policy' &&
        resource.Properties.PolicyDocument.Statement.some(
          (statement: any) =>
            actionsOf(statement).some((action) => action.startsWith('states:')) && JSON.stringify(statement.Resource) === JSON.stringify({ Ref: machineId }),
        ),
    );
    expect(startingPolicies.length).toBeGreaterThan(0);
    for (const policy of startingPolicies) {
      for (const role of policy.Properties.Roles) expect(starterRoles.has(role.Ref)).toBe(true);
    }
  });
});

describe('the local state machine', () => {
  it('runs the definition synthesized from the construct (not a copy)', () => {
    const local = synthesizeWorkflow();
    expect(local.definition).toEqual(definition);
    expect(Object.keys(local.tasks).sort()).toEqual(
      Object.values(WORKFLOW_STATES)
        .filter((name) => name !== WORKFLOW_STATES.choice)
        .sort(),
    );
    for (const target of Object.values(local.tasks)) expect(target).toEqual({ handlerName: 'order-ahead-validate', exportName: VALIDATION_TASK_EXPORT });
  });
});
