/**
 * Local Step Functions: the order-ahead validation state machine runs here from the same ASL
 * definition the CDK stack deploys (aws-local-stepfunctions). Filled in by the order-ahead work;
 * until then there is nothing to start.
 */
export async function startLocalWorkflows(): Promise<void> {}
