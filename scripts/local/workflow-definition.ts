/**
 * The order-ahead state machines' definitions as the CDK constructs synthesize them, for the local
 * runner: the construct is synthesized in-process (bundling skipped), `DefinitionString` is taken from
 * the template, its CloudFormation tokens are resolved, and each Task state's Resource is traced back to
 * the function (module under functions/ and export) it invokes. Nothing here restates a definition, so
 * the local machines cannot drift from the deployed ones.
 */
import { App, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { WorkflowKind } from '#shared/workflows/executions.ts';
import { ApiFunction } from '../../infra/constructs/api-function.ts';
import { OrderAheadCompletionWorkflow } from '../../infra/constructs/order-ahead-completion-workflow.ts';
import { OrderAheadWorkflow } from '../../infra/constructs/order-ahead-workflow.ts';
import { LoyaltyTable } from '../../infra/constructs/table.ts';

/** The construct of each workflow, as the stack builds it (no starting functions: the local runner starts executions). */
const CONSTRUCTS: Record<WorkflowKind, (scope: Construct, table: ITable) => void> = {
  validation: (scope, table) => new OrderAheadWorkflow(scope, 'OrderAheadWorkflow', { table, startingFunctions: [] }),
  completion: (scope, table) => new OrderAheadCompletionWorkflow(scope, 'OrderAheadCompletionWorkflow', { table, startingFunctions: [] }),
};

export interface LocalTaskTarget {
  /** Module under functions/ (without extension). */
  handlerName: string;
  /** The module's export the function's Handler names. */
  exportName: string;
}

export interface SynthesizedWorkflow {
  /** The ASL definition (JSON object) with tokens resolved. */
  definition: Record<string, any>;
  /** Task state name -> the function it invokes. */
  tasks: Record<string, LocalTaskTarget>;
  /** STANDARD (one execution per name) or EXPRESS (every start runs). */
  type: 'STANDARD' | 'EXPRESS';
}

const LOCAL_ACCOUNT = '000000000000';
const LOCAL_REGION = 'us-east-1';

function localFunctionArn(logicalId: string): string {
  return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${logicalId}`;
}

/** Resolves the CloudFormation intrinsics CDK puts in a DefinitionString (Fn::Join, Fn::GetAtt, Ref). */
export function resolveTokens(value: unknown, resources: Record<string, { Type: string }>): string {
  if (typeof value === 'string') return value;
  const intrinsic = value as Record<string, any>;
  if ('Fn::Join' in intrinsic) {
    const [separator, parts] = intrinsic['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => resolveTokens(part, resources)).join(separator);
  }
  if ('Fn::GetAtt' in intrinsic) {
    const [logicalId, attribute] = intrinsic['Fn::GetAtt'] as [string, string];
    if (resources[logicalId]?.Type === 'AWS::Lambda::Function' && attribute === 'Arn') return localFunctionArn(logicalId);
    throw new Error(`Cannot resolve Fn::GetAtt ${logicalId}.${attribute} for the local state machine`);
  }
  if ('Ref' in intrinsic) {
    const pseudo: Record<string, string> = {
      'AWS::Partition': 'aws',
      'AWS::Region': LOCAL_REGION,
      'AWS::AccountId': LOCAL_ACCOUNT,
      'AWS::URLSuffix': 'amazonaws.com',
    };
    const name = intrinsic.Ref as string;
    return pseudo[name] ?? name;
  }
  throw new Error(`Unsupported intrinsic in DefinitionString: ${JSON.stringify(value)}`);
}

function taskStates(states: Record<string, any>): [string, any][] {
  return Object.entries(states).flatMap(([name, state]) => [
    ...(state.Type === 'Task' ? [[name, state] as [string, any]] : []),
    ...(state.Branches ?? []).flatMap((branch: any) => taskStates(branch.States)),
    ...(state.ItemProcessor ? taskStates(state.ItemProcessor.States) : []),
    ...(state.Iterator ? taskStates(state.Iterator.States) : []),
  ]);
}

export function synthesizeWorkflow(kind: WorkflowKind = 'validation'): SynthesizedWorkflow {
  // Skip bundling: only the template is needed, and esbuild would slow every start.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'OrderAheadWorkflowLocal');
  const table = new LoyaltyTable(stack, 'Data').table;
  CONSTRUCTS[kind](stack, table);
  const template = app.synth().getStackByName(stack.stackName).template as { Resources: Record<string, { Type: string; Properties: any }> };

  const machines = Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::StepFunctions::StateMachine');
  if (machines.length !== 1) throw new Error(`Expected one state machine in the workflow construct, found ${machines.length}`);
  const definition = JSON.parse(resolveTokens(machines[0]!.Properties.DefinitionString, template.Resources)) as Record<string, any>;

  const functionsByLogicalId = new Map<string, ApiFunction>();
  for (const construct of stack.node.findAll()) {
    if (construct instanceof ApiFunction) functionsByLogicalId.set(stack.getLogicalId(construct.node.defaultChild as CfnFunction), construct);
  }
  const tasks: Record<string, LocalTaskTarget> = {};
  for (const [name, state] of taskStates(definition.States)) {
    const logicalId = /^arn:aws:lambda:[^:]+:\d+:function:(.+)$/.exec(state.Resource)?.[1];
    const fn = logicalId ? functionsByLogicalId.get(logicalId) : undefined;
    if (!logicalId || !fn) throw new Error(`Task ${name} invokes ${state.Resource}, which is not a function of the workflow`);
    const handler = template.Resources[logicalId]!.Properties.Handler as string;
    tasks[name] = { handlerName: fn.handlerName, exportName: handler.slice(handler.lastIndexOf('.') + 1) };
  }
  return { definition, tasks, type: machines[0]!.Properties.StateMachineType === 'EXPRESS' ? 'EXPRESS' : 'STANDARD' };
}
