import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ClientLimitsWebAcl, EDGE_REGION } from './constructs/client-limits.ts';

/**
 * What the API needs in us-east-1 whatever its own region: the per-client limits' web ACL, which
 * CloudFront accepts only from there. The API stack reads its ARN through a cross-region reference.
 */
export class LoyaltyApiEdgeStack extends Stack {
  public readonly clientLimits: ClientLimitsWebAcl;

  public constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, { ...props, env: { account: props.env?.account, region: EDGE_REGION } });
    this.clientLimits = new ClientLimitsWebAcl(this, 'ClientLimits');
  }
}
