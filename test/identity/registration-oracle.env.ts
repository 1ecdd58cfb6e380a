// Imported first by registration-oracle.test.ts: the DynamoDB client and the handlers decide at load time
// whether to count round trips, so the variable must be set before either module is evaluated.
process.env.DYNAMODB_STATS = '1';
