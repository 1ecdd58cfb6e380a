import { App } from 'aws-cdk-lib';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { LoyaltyApiStack } from '../../infra/stack.ts';
import { GEOCODE_ACTION } from '../../infra/constructs/geocoder.ts';
import { handlerEntry } from '../../infra/constructs/api-function.ts';
import { esbuildOptions } from '../../bench/cold-start/cold-start.ts';
import { FALLBACK_HANDLER, routes } from '#shared/routes.ts';
import { SYNTH_TIMEOUT_MS, synthesizedTemplates, type SynthesizedTemplates } from '../support/templates.ts';

/** The bench's bundle target, which every function's minified bundle must meet (docs/benchmarks.md). */
const MAX_BUNDLE_BYTES = 200 * 1024;
const geocoding = routes.filter((route) => route.geocodes).map((route) => route.handler);

let stack: LoyaltyApiStack;
let synthesized: SynthesizedTemplates;
let resources: Record<string, { Type: string; Properties?: Record<string, any> }>;

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  stack = new LoyaltyApiStack(app, 'LoyaltyApi');
  // The parent and its nested route stacks as one (test/support/templates.ts).
  synthesized = synthesizedTemplates(stack);
  resources = synthesized.resources;
}, SYNTH_TIMEOUT_MS);

const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The statements of every policy attached to a handler's role. */
function statementsOf(handler: string): any[] {
  const fn = resources[synthesized.logicalIdOf(stack.functions.get(handler)!)]!;
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && asArray(resource.Properties!.Roles).some((role: any) => role.Ref === roleId))
    .flatMap((policy) => policy.Properties!.PolicyDocument.Statement);
}

describe('the geocoder in the stack', () => {
  it('serves the address routes that geocode', () => {
    expect(geocoding.sort()).toEqual(['user-addresses-create', 'user-addresses-update']);
  });

  it.each(geocoding)('grants %s geo-places:Geocode on the Places provider resource only', (handler) => {
    const geo = statementsOf(handler).filter((statement) => asArray<string>(statement.Action).some((action) => action.startsWith('geo')));
    expect(geo).toEqual([
      {
        Effect: 'Allow',
        Action: GEOCODE_ACTION,
        Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':geo-places:', { Ref: 'AWS::Region' }, '::provider/default']] },
      },
    ]);
  });

  it.each(geocoding)('configures %s for Amazon Location Service', (handler) => {
    const fn = resources[synthesized.logicalIdOf(stack.functions.get(handler)!)]!;
    expect(fn.Properties!.Environment.Variables).toMatchObject({ GEOCODER: 'amazon-location', GEOCODER_COUNTRIES: 'USA' });
  });

  it('grants no other function any Amazon Location action', () => {
    for (const handler of [...routes.map((route) => route.handler), FALLBACK_HANDLER].filter((name) => !geocoding.includes(name))) {
      const actions = statementsOf(handler).flatMap((statement) => asArray<string>(statement.Action));
      expect(
        actions.filter((action) => action.startsWith('geo')),
        handler,
      ).toEqual([]);
    }
  });
});

describe('geocoding bundles, built as the stack builds them', () => {
  it('leave the sandbox and its postal-code data out, and stay within the bundle target', async () => {
    const result = await build({
      ...esbuildOptions(Object.fromEntries(geocoding.map((handler) => [handler, handlerEntry(handler)])), '/tmp/geocoder-bundle-check'),
      write: false,
    });
    const outputs = Object.entries(result.metafile!.outputs).filter(([path]) => path.endsWith('.mjs'));
    expect(outputs).toHaveLength(geocoding.length);
    for (const [path, output] of outputs) {
      const inputs = Object.keys(output.inputs);
      expect(
        inputs.some((input) => input.includes('shared/geocoding/amazon-location.ts')),
        path,
      ).toBe(true);
      expect(
        inputs.filter((input) => input.includes('node_modules/zipcodes') || input.includes('shared/geocoding/sandbox.ts')),
        path,
      ).toEqual([]);
      expect(output.bytes, path).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
    }
  });
});
