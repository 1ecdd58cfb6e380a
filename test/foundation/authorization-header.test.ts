import { describe, expect, it } from 'vitest';
import { parseAuthorization } from '#shared/auth/header.ts';

describe('Authorization header forms real clients send', () => {
  it.each([
    ['token abc', { untagged: ['abc'] }],
    ['token user="abc"', { untagged: [], user: 'abc' }],
    ['token merchant="m1"', { untagged: [], merchant: 'm1' }],
    ['token merchant="m1", user="u1"', { untagged: [], merchant: 'm1', user: 'u1' }],
    ['token merchant="m1",user="u1"', { untagged: [], merchant: 'm1', user: 'u1' }],
    ['Token user="u1", merchant="m1"', { untagged: [], merchant: 'm1', user: 'u1' }],
  ])('parses %s', (header, expected) => {
    expect(parseAuthorization(header)).toEqual(expected);
  });

  it.each(['', 'Bearer abc', 'token', 'token user="a", user="b"', 'token a, b, c', 'token user="a b"', 'token x="y"'])('rejects %j', (header) => {
    expect(parseAuthorization(header)).toBeUndefined();
  });
});
