import { App } from 'aws-cdk-lib';
import { LoyaltyApiStack } from './stack.ts';

const app = new App();

// Environment-agnostic (no account/region): `cdk synth` needs no AWS credentials and no context
// lookups; `cdk deploy` takes the account and region of the credentials it runs with.
new LoyaltyApiStack(app, 'LoyaltyApi', {
  description: 'Loyalty, gift card, order and payments API',
});

app.synth();
