/**
 * Request throttling of the API, applied to every route of the deployed HTTP API's `$default` stage
 * (infra/constructs/http-api.ts) and meant to be applied by the local gateway too, so `npm start`
 * rejects bursts the same way AWS does (429 Too Many Requests).
 *
 * Why these numbers: the account-level API Gateway quota is shared by every API in the region
 * (10,000 rps by default); capping this API well below it keeps a misbehaving client or a retry
 * storm from starving other APIs and from running up Lambda concurrency and DynamoDB on-demand
 * cost. `rateLimit` is the steady-state requests per second (token bucket refill), `burstLimit`
 * the bucket size, i.e. how many requests may arrive at once. Raise them deliberately, with the
 * Lambda concurrency limit and the cost estimate in mind.
 */
export const API_THROTTLING = { rateLimit: 100, burstLimit: 200 } as const;
