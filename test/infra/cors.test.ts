import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { CORS_CONTEXT, LoyaltyHttpApi } from '../../infra/constructs/http-api.ts';

/**
 * CORS in the synthesized template (issue 37): the deployment's origins from the `corsAllowOrigins` context become the
 * HTTP API's CorsConfiguration, so API Gateway answers preflights and adds the headers; the allowed and exposed
 * headers are the ones shared/http/cors.ts gives the local gateway too. Only the HTTP API construct is synthesized.
 */
function httpApiTemplate(context: Record<string, unknown>) {
  // No bundling of the fallback function: the template is what is under test.
  const stack = new Stack(new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } }), 'CorsApi');
  new LoyaltyHttpApi(stack, 'Api');
  const apis = Template.fromStack(stack).findResources('AWS::ApiGatewayV2::Api');
  expect(Object.keys(apis)).toHaveLength(1);
  return Object.values(apis)[0]!.Properties as { CorsConfiguration?: Record<string, unknown> };
}

describe("the HTTP API's corsPreflight", () => {
  it("lists the context's origins, allows Authorization, Content-Type and Idempotency-Key, and exposes Link, Retry-After and X-Request-Id", () => {
    const api = httpApiTemplate({ [CORS_CONTEXT]: 'https://console.example.com, https://pos.example.com' });
    expect(api.CorsConfiguration).toEqual({
      AllowOrigins: ['https://console.example.com', 'https://pos.example.com'],
      AllowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      AllowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
      ExposeHeaders: expect.arrayContaining(['Link', 'Retry-After', 'X-Request-Id', 'Idempotent-Replayed']),
      MaxAge: 600,
    });
    expect(api.CorsConfiguration).not.toHaveProperty('AllowCredentials');
  });

  it('is absent by default: no origin is allowed until a deployment names one', () => {
    expect(httpApiTemplate({}).CorsConfiguration).toBeUndefined();
  });

  it('refuses at synth what is not an origin, and `*` beside other origins', () => {
    expect(() => httpApiTemplate({ [CORS_CONTEXT]: 'https://console.example.com/app' })).toThrow(/not an origin/);
    expect(() => httpApiTemplate({ [CORS_CONTEXT]: '*,https://console.example.com' })).toThrow(/alone/);
  });
});
