import { createHash } from 'node:crypto';
import { NestedStack, Validations } from 'aws-cdk-lib';
import { HttpRoute, HttpRouteKey, HttpMethod, PayloadFormatVersion, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { DEFAULT_MEMORY_MB, FALLBACK_HANDLER, type Route } from '#shared/routes.ts';
import { API_FUNCTION_BUNDLING, ApiFunction, constructIdFor } from './api-function.ts';
import { UNAUTHORIZED_ROUTE_ACKNOWLEDGEMENT } from './http-api.ts';

/**
 * How many nested stacks share the routes. Each route adds ROUTE_RESOURCES resources to its nested
 * stack; with 8 stacks the fullest one stays under ROUTE_STACK_RESOURCE_BUDGET (test/infra/limits.test.ts)
 * until the route table holds several hundred routes. Raising it moves only about 1/(n+1) of the
 * routes (rendezvous hashing), never all of them.
 */
export const ROUTE_STACK_COUNT = 8;

/** Resources one route adds to its nested stack: function, role, policy, log group, integration, route, permission, error alarm. */
export const ROUTE_RESOURCES = 8;

/**
 * The most resources any synthesized template may hold: CloudFormation's limit is 500 per stack; the
 * other 100 are headroom for a route group that grows before someone raises ROUTE_STACK_COUNT.
 */
export const ROUTE_STACK_RESOURCE_BUDGET = 400;

/**
 * The nested stack (0 .. count-1) that holds a handler's function and route: rendezvous (highest
 * random weight) hashing of the handler name. It depends on the handler alone, so adding or removing
 * a route never moves another one (a move replaces the function and its log group); raising `count`
 * moves only the handlers whose new highest weight is the new stack.
 */
export function routeStackIndex(handler: string, count: number = ROUTE_STACK_COUNT): number {
  let best = 0;
  let bestWeight = -1n;
  for (let index = 0; index < count; index++) {
    const weight = BigInt(`0x${createHash('sha256').update(`${index}:${handler}`).digest('hex').slice(0, 15)}`);
    if (weight > bestWeight) {
      best = index;
      bestWeight = weight;
    }
  }
  return best;
}

/** Copies a route's `bundledFiles` (paths from the repository root) next to its bundled index.mjs. */
function copiedBesideBundle(files: readonly string[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => files.map((file) => `cp "${inputDir}/${file}" "${outputDir}/"`),
  };
}

/** The function of one route, with its table access from the route's `table` field (`none`: no TABLE_NAME, no grant). */
function routeFunction(scope: Construct, route: Route, table: ITable): ApiFunction {
  const fn = new ApiFunction(scope, 'Function', {
    handlerName: route.handler,
    // The measured pick (bench/memory/memory.ts, docs/cost.md "Memory per function"), else the default.
    memorySize: route.memory ?? DEFAULT_MEMORY_MB,
    ...(route.bundledFiles ? { bundling: { ...API_FUNCTION_BUNDLING, commandHooks: copiedBesideBundle(route.bundledFiles) } } : {}),
  });
  if (route.table !== 'none') fn.bindTable({ table, accessMode: route.table === 'write' ? 'RW' : 'RO' });
  return fn;
}

export interface RouteFunctionsProps {
  routes: readonly Route[];
  table: ITable;
  api: IHttpApi;
  /** @default ROUTE_STACK_COUNT */
  stackCount?: number;
}

/**
 * The routes of the route table, each with everything that exists only for it: its function, role,
 * policy, log group, Lambda integration, API Gateway route and invoke permission (and, added by
 * Monitoring, its error alarm). They live in ROUTE_STACK_COUNT nested stacks (`Routes0`..), chosen by
 * routeStackIndex, so the parent stack (API, stage, table, workflows, monitoring) stays the same size
 * whatever the route table holds, and no template nears CloudFormation's 500 resources. Each nested
 * stack reads the parent's table, API and topic through parameters; grants stay per function.
 */
export class RouteFunctions extends Construct {
  /** Handler name (module under functions/) -> its function. */
  public readonly functions: ReadonlyMap<string, ApiFunction>;
  /** The nested stacks that hold at least one route, by index. */
  public readonly stacks: ReadonlyMap<number, NestedStack>;

  public constructor(scope: Construct, id: string, { routes, table, api, stackCount = ROUTE_STACK_COUNT }: RouteFunctionsProps) {
    super(scope, id);
    const functions = new Map<string, ApiFunction>();
    const stacks = new Map<number, NestedStack>();
    const stackFor = (handler: string): NestedStack => {
      const index = routeStackIndex(handler, stackCount);
      let stack = stacks.get(index);
      if (!stack) {
        stack = new NestedStack(this, `Routes${index}`, {
          description: `Loyalty API routes, group ${index} of ${stackCount} (infra/constructs/route-functions.ts)`,
        });
        stacks.set(index, stack);
      }
      return stack;
    };

    for (const route of routes) {
      if (functions.has(route.handler)) {
        throw new Error(`functions/${route.handler}.ts serves more than one route; give each route its own handler`);
      }
      if (route.handler === FALLBACK_HANDLER) {
        throw new Error(`${FALLBACK_HANDLER} is the fallback handler and cannot also serve a route`);
      }
      const routeScope = new Construct(stackFor(route.handler), constructIdFor(route.handler));
      const fn = routeFunction(routeScope, route, table);
      const httpRoute = new HttpRoute(routeScope, 'Route', {
        httpApi: api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration('Integration', fn, { payloadFormatVersion: PayloadFormatVersion.VERSION_2_0 }),
      });
      Validations.of(httpRoute).acknowledge(UNAUTHORIZED_ROUTE_ACKNOWLEDGEMENT);
      functions.set(route.handler, fn);
    }

    this.functions = functions;
    this.stacks = stacks;
  }
}
