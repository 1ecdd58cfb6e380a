/**
 * CloudFormation's per-template quotas, checked on every template `cdk synth` writes (parents and
 * nested route stacks): at most 500 resources, 200 parameters and 200 outputs, and a body of at most
 * 1 MB (the size an S3-hosted template may have; `cdk deploy` uploads every template to the
 * bootstrap bucket, and nested templates are always read from there). Our own budget is tighter
 * (ROUTE_STACK_RESOURCE_BUDGET, 80% of the quotas) so that routes can be added for a while before
 * anyone must raise ROUTE_STACK_COUNT; docs/architecture.md "Stacks" says how.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLoyaltyApi } from '../../infra/app-stacks.ts';
import { LoyaltyApiStack } from '../../infra/stack.ts';
import { ROUTE_RESOURCES, ROUTE_STACK_COUNT, ROUTE_STACK_RESOURCE_BUDGET, routeStackIndex } from '../../infra/constructs/route-functions.ts';
import { routes } from '#shared/routes.ts';
import { SYNTH_TIMEOUT_MS } from '../support/templates.ts';

/** CloudFormation quotas per template. */
const QUOTAS = { resources: 500, parameters: 200, outputs: 200, bodyBytes: 1_000_000 } as const;
/** Our budget: 80% of each quota. */
const BUDGET = {
  resources: ROUTE_STACK_RESOURCE_BUDGET,
  parameters: QUOTAS.parameters * 0.8,
  outputs: QUOTAS.outputs * 0.8,
  bodyBytes: QUOTAS.bodyBytes * 0.8,
};

type TemplateJson = { Resources: Record<string, { Type: string }>; Parameters?: object; Outputs?: object };

let templates: Map<string, TemplateJson>;

/** Every template file of a synthesized cloud assembly, by file name. */
function templateFiles(app: App): Map<string, TemplateJson> {
  const directory = app.synth().directory;
  return new Map(
    readdirSync(directory)
      .filter((file) => file.endsWith('.template.json'))
      .map((file) => [file, JSON.parse(readFileSync(join(directory, file), 'utf8')) as TemplateJson]),
  );
}

beforeAll(() => {
  // As infra/app.ts builds it (edge stack, API stack with its nested route stacks); bundling skipped.
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  createLoyaltyApi(app, { region: 'us-east-1' });
  templates = templateFiles(app);
}, SYNTH_TIMEOUT_MS);

describe('every synthesized template', () => {
  it('includes the nested route stacks', () => {
    const nested = [...templates.keys()].filter((file) => file.endsWith('.nested.template.json'));
    expect(nested.length).toBeGreaterThan(1);
    expect(nested.length).toBeLessThanOrEqual(ROUTE_STACK_COUNT);
    // Every route's function is in one of them, none in the parent.
    const nestedFunctions = nested.flatMap((file) =>
      Object.values(templates.get(file)!.Resources).filter((resource) => resource.Type === 'AWS::Lambda::Function'),
    );
    expect(nestedFunctions).toHaveLength(routes.length);
  });

  it(`holds at most ${BUDGET.resources} resources (quota ${QUOTAS.resources}), ${BUDGET.parameters} parameters and ${BUDGET.outputs} outputs`, () => {
    for (const [file, template] of templates) {
      expect(Object.keys(template.Resources).length, file).toBeLessThanOrEqual(BUDGET.resources);
      expect(Object.keys(template.Parameters ?? {}).length, file).toBeLessThanOrEqual(BUDGET.parameters);
      expect(Object.keys(template.Outputs ?? {}).length, file).toBeLessThanOrEqual(BUDGET.outputs);
    }
  });

  it(`is at most ${BUDGET.bodyBytes} bytes as deployed (quota ${QUOTAS.bodyBytes})`, () => {
    for (const [file, template] of templates) expect(JSON.stringify(template).length, file).toBeLessThanOrEqual(BUDGET.bodyBytes);
  });
});

describe('the parent stack', () => {
  it(
    'does not grow with the route table: a route adds resources to a nested stack only',
    () => {
      const countOf = (routeTable: typeof routes) => {
        const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
        const stack = new LoyaltyApiStack(app, 'LoyaltyApi', { routes: routeTable });
        const template = app.synth().getStackByName(stack.stackName).template as TemplateJson;
        return Object.keys(template.Resources).length;
      };
      // One route in each group gives the parent every nested stack it will have: the whole table adds nothing
      // to it. (One group for all routes would put the whole table in one nested stack, past its own quota.)
      const onePerGroup = [...new Map(routes.map((route) => [routeStackIndex(route.handler), route])).values()];
      expect(onePerGroup).toHaveLength(ROUTE_STACK_COUNT);
      expect(countOf(routes)).toBe(countOf(onePerGroup));
    },
    SYNTH_TIMEOUT_MS,
  );
});

describe('route groups', () => {
  const syntheticHandlers = (count: number) => Array.from({ length: count }, (_, index) => `synthetic-route-${index}`);

  it(`${ROUTE_STACK_COUNT} groups hold 250 routes within the budget (${ROUTE_RESOURCES} resources a route)`, () => {
    const sizes = new Array<number>(ROUTE_STACK_COUNT).fill(0);
    for (const handler of syntheticHandlers(250)) sizes[routeStackIndex(handler)]! += 1;
    // Resources besides the routes' own: none today; leave 20 for what a group may gain.
    expect(Math.max(...sizes) * ROUTE_RESOURCES + 20).toBeLessThanOrEqual(BUDGET.resources);
  });

  it('adding a group moves only the routes that land in it', () => {
    const handlers = [...routes.map((route) => route.handler), ...syntheticHandlers(200)];
    const moved = handlers.filter((handler) => routeStackIndex(handler, ROUTE_STACK_COUNT) !== routeStackIndex(handler, ROUTE_STACK_COUNT + 1));
    expect(moved.every((handler) => routeStackIndex(handler, ROUTE_STACK_COUNT + 1) === ROUTE_STACK_COUNT)).toBe(true);
    expect(moved.length).toBeLessThan(handlers.length / 4);
  });
});
