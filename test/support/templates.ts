/**
 * The API stack's templates read as one: the parent and its nested route stacks
 * (infra/constructs/route-functions.ts) merged into a single resource map, with every nested stack
 * parameter replaced by the parent expression the parent passes for it, and every parent reference
 * to a nested output replaced by that output's value. A function's role, its policies and the
 * table ARN they name then read exactly as in one flat template, so the infra tests assert on the
 * deployed wiring (which parent resource each nested reference ends at) and not on CDK's plumbing.
 */
import { NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';

export type Resource = { Type: string; Properties?: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string; DependsOn?: unknown };
type Json = any;

export interface SynthesizedTemplates {
  /** The parent's template and its nested stacks' templates, each as CloudFormation receives it. */
  parent: Template;
  nested: ReadonlyMap<NestedStack, Template>;
  /** Every resource of the parent and its nested stacks, references resolved across them. */
  merged: Template;
  resources: Record<string, Resource>;
  /** The logical id (unique in `resources`) of a construct's CloudFormation resource, in whichever stack it lives. */
  logicalIdOf: (construct: IConstruct) => string;
}

/** Replaces every `{ Ref: name }` for which `refs` has a value, and every `Fn::GetAtt` for which `getAtts` has one. */
function substitute(value: Json, refs: (name: string) => Json, getAtts: (id: string, attribute: string) => Json): Json {
  if (Array.isArray(value)) return value.map((item) => substitute(item, refs, getAtts));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'Ref' && typeof value.Ref === 'string') {
    const replaced = refs(value.Ref);
    if (replaced !== undefined) return replaced;
  }
  if (keys.length === 1 && keys[0] === 'Fn::GetAtt' && Array.isArray(value['Fn::GetAtt'])) {
    const [id, attribute] = value['Fn::GetAtt'] as [string, string];
    const replaced = getAtts(id, attribute);
    if (replaced !== undefined) return replaced;
  }
  return Object.fromEntries(keys.map((key) => [key, substitute(value[key], refs, getAtts)]));
}

export function synthesizedTemplates(stack: Stack): SynthesizedTemplates {
  const parent = Template.fromStack(stack);
  const parentJson = parent.toJSON();
  const nestedStacks = stack.node
    .findAll()
    .filter((construct): construct is NestedStack => NestedStack.isNestedStack(construct) && construct.nestedStackParent === stack);
  const nested = new Map(nestedStacks.map((child) => [child, Template.fromStack(child)]));

  const resources: Record<string, Resource> = {};
  const outputsByStackResource = new Map<string, Record<string, Json>>();
  for (const [child, template] of nested) {
    const json = template.toJSON();
    const stackResourceId = stack.getLogicalId(child.nestedStackResource!);
    const passed = (parentJson.Resources[stackResourceId].Properties.Parameters ?? {}) as Record<string, Json>;
    const resolve = (value: Json) =>
      substitute(
        value,
        (name) => passed[name],
        () => undefined,
      );
    for (const [id, resource] of Object.entries<Resource>(json.Resources)) {
      if (resources[id] || parentJson.Resources[id]) throw new Error(`Logical id ${id} appears in more than one template; the merged view needs unique ids`);
      resources[id] = resolve(resource);
    }
    outputsByStackResource.set(
      stackResourceId,
      Object.fromEntries(Object.entries<Json>(json.Outputs ?? {}).map(([name, output]) => [name, resolve(output.Value)])),
    );
  }
  const fromOutputs = (id: string, attribute: string) =>
    attribute.startsWith('Outputs.') ? outputsByStackResource.get(id)?.[attribute.slice('Outputs.'.length)] : undefined;
  for (const [id, resource] of Object.entries<Resource>(parentJson.Resources)) resources[id] = substitute(resource, () => undefined, fromOutputs);
  const outputs = substitute(parentJson.Outputs ?? {}, () => undefined, fromOutputs);

  const merged = Template.fromJSON({ ...parentJson, Resources: resources, Outputs: outputs }, { skipCyclicalDependenciesCheck: true });
  return {
    parent,
    nested,
    merged,
    resources,
    logicalIdOf: (construct) => {
      const cfn = construct.node.defaultChild ?? construct;
      return Stack.of(cfn).getLogicalId(cfn as any);
    },
  };
}

/** How long a test's synthesis may take: seconds on a quiet machine, minutes with several test runs sharing two cores. */
export const SYNTH_TIMEOUT_MS = 600_000;
