import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { FALLBACK_HANDLER, type Route } from '#shared/routes.ts';
import type { ICommandHooks } from 'aws-cdk-lib/aws-lambda-nodejs';
import { API_FUNCTION_BUNDLING, ApiFunction } from './api-function.ts';

export interface RouteFunctionsProps {
  routes: readonly Route[];
  table: ITable;
}

/** `users-create` -> `UsersCreate`: a stable construct id (and so logical id) per handler. */
export function constructIdFor(handler: string): string {
  return handler
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** Copies a route's `bundledFiles` (paths under node_modules) next to its bundled index.mjs. */
function copiedBesideBundle(files: readonly string[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) => files.map((file) => `cp "${inputDir}/node_modules/${file}" "${outputDir}/"`),
  };
}

/**
 * One function per handler of the route table, plus the fallback that serves `$default`.
 * Table access follows each route's `table` field (`none`: no TABLE_NAME, no grant); the fallback gets none.
 */
export class RouteFunctions extends Construct {
  /** Handler name (module under functions/) -> its function. */
  public readonly functions: ReadonlyMap<string, ApiFunction>;
  public readonly fallback: ApiFunction;

  public constructor(scope: Construct, id: string, { routes, table }: RouteFunctionsProps) {
    super(scope, id);
    const functions = new Map<string, ApiFunction>();

    for (const route of routes) {
      if (functions.has(route.handler)) {
        throw new Error(`functions/${route.handler}.ts serves more than one route; give each route its own handler`);
      }
      const fn = new ApiFunction(this, constructIdFor(route.handler), {
        handlerName: route.handler,
        ...(route.bundledFiles ? { bundling: { ...API_FUNCTION_BUNDLING, commandHooks: copiedBesideBundle(route.bundledFiles) } } : {}),
      });
      if (route.table !== 'none') fn.bindTable({ table, accessMode: route.table === 'write' ? 'RW' : 'RO' });
      functions.set(route.handler, fn);
    }

    if (functions.has(FALLBACK_HANDLER)) {
      throw new Error(`${FALLBACK_HANDLER} is the fallback handler and cannot also serve a route`);
    }
    this.fallback = new ApiFunction(this, constructIdFor(FALLBACK_HANDLER), { handlerName: FALLBACK_HANDLER });
    functions.set(FALLBACK_HANDLER, this.fallback);

    this.functions = functions;
  }
}
