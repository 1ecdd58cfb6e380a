import { App } from 'aws-cdk-lib';
import { createLoyaltyApi } from './app-stacks.ts';

const app = new App();

// The account and region of the credentials `cdk` runs with (no context lookups): `cdk synth` needs no
// credentials, and without a configured region the CLI (and so this app) uses us-east-1.
createLoyaltyApi(app, {
  account: process.env.CDK_DEFAULT_ACCOUNT,
  region: process.env.CDK_DEFAULT_REGION ?? 'us-east-1',
});

app.synth();
