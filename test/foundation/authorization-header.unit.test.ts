import { describe, expect, it } from 'vitest';
import { MAX_AUTHORIZATION_LENGTH, parseAuthorization } from '#shared/auth/header.ts';

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

describe('Authorization header parsing is bounded (issue: quadratic in whitespace)', () => {
  it('parses the unquoted PowerShell form', () => {
    expect(parseAuthorization('token merchant=m1, user=u1')).toEqual({ untagged: [], merchant: 'm1', user: 'u1' });
  });

  it('refuses the 20 KB whitespace header of the attack (issue: ~0.3 s each) by its length', () => {
    expect(parseAuthorization(`token ${' '.repeat(20 * 1024)}abc ${' '.repeat(20 * 1024)}`)).toBeUndefined();
  });

  it('refuses a header longer than the bound before parsing it', () => {
    const padded = `token ${' '.repeat(MAX_AUTHORIZATION_LENGTH)}abc`;
    expect(parseAuthorization(padded)).toBeUndefined();
    expect(parseAuthorization(`token ${'a'.repeat(MAX_AUTHORIZATION_LENGTH)}`)).toBeUndefined();
  });

  it('parses whitespace-heavy headers within the bound (trim and split, no backtracking regular expression)', () => {
    const gap = ' \t'.repeat((MAX_AUTHORIZATION_LENGTH - 40) / 4);
    const header = `token${gap}user="u1",${gap}merchant=m1`;
    expect(header.length).toBeLessThanOrEqual(MAX_AUTHORIZATION_LENGTH);
    expect(parseAuthorization(header)).toEqual({ untagged: [], user: 'u1', merchant: 'm1' });
    expect(parseAuthorization(`token${gap}`)).toBeUndefined();
  });
});
