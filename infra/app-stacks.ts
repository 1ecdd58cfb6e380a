import type { App, Environment } from 'aws-cdk-lib';
import { LoyaltyApiEdgeStack } from './edge-stack.ts';
import { LoyaltyApiStack } from './stack.ts';

/**
 * The deployable app: the API stack in the region deployed to, and the edge stack in us-east-1 with
 * the web ACL its CloudFront distribution uses. Cross-region references (CDK writes the ACL's ARN to
 * an SSM parameter in the API's region) need both regions known at synth: `cdk` passes the region of
 * the profile (us-east-1 when none is configured), so `cdk synth` still needs no credentials.
 */
export function createLoyaltyApi(app: App, env: Environment): { edge: LoyaltyApiEdgeStack; api: LoyaltyApiStack } {
  const edge = new LoyaltyApiEdgeStack(app, 'LoyaltyApiEdge', {
    env: { account: env.account },
    description: 'Loyalty API edge: per-client limits (AWS WAF web ACL for CloudFront)',
    crossRegionReferences: true,
  });
  const api = new LoyaltyApiStack(app, 'LoyaltyApi', {
    env,
    description: 'Loyalty, gift card, order and payments API',
    crossRegionReferences: true,
    clientLimits: edge.clientLimits.reference(),
  });
  return { edge, api };
}
