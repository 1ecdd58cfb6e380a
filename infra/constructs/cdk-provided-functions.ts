import { Validations, type Stack } from 'aws-cdk-lib';

/** A function CDK adds to a stack for its own work (one per stack), as its acknowledgements name it. */
export interface CdkProvidedFunction {
  /** The start of the function's construct id at the stack's root. */
  idPrefix: string;
  /** What the reasons call it, e.g. "custom resource function". */
  name: string;
  /** The runtime CDK ships it with. */
  runtime: 'Node.js' | 'Python';
  /** Findings of this function alone, acknowledged after the basic execution policy's. @default none */
  ownFindings?: readonly { id: string; reason: string }[];
}

/**
 * CDK puts some of a stack's functions in place itself (bucket notifications, AwsCustomResource calls). Their
 * findings are CDK's choices, not this stack's: acknowledged on that function alone, each by its exact finding.
 */
export function acknowledgeCdkProvidedFunction(stack: Stack, { idPrefix, name, runtime, ownFindings = [] }: CdkProvidedFunction): void {
  const shippedRuntime = `CDK's ${name} runs the ${runtime} runtime CDK ships it with.`;
  for (const child of stack.node.children) {
    if (!child.node.id.startsWith(idPrefix)) continue;
    Validations.of(child).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: `CDK's ${name} logs through the AWS managed basic execution policy; CDK builds its role.`,
      },
      ...ownFindings,
      { id: 'AwsSolutions-L1', reason: shippedRuntime },
      { id: 'Serverless-LambdaTracing', reason: 'Runs once per deployment, called by CloudFormation; its log group records every run.' },
      { id: 'Serverless-LambdaDLQ', reason: 'Called synchronously by CloudFormation, which reports a failure as the deployment failing.' },
      { id: 'Serverless-LambdaDefaultMemorySize', reason: `CDK's ${name} keeps the memory CDK gives it.` },
      { id: 'Serverless-LambdaLatestVersion', reason: shippedRuntime },
    );
  }
}
