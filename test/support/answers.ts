/** What the contract's error answers look like, for tests that assert them whole. */
import { expect } from 'vitest';
import type { ApiResult, TestApi } from './api.ts';

/** The contract's body of one error: `[{ "error": { object, property, message, code } }]`. */
export function errorBody(object: string, property: string, message: string, code: string) {
  return [{ error: { object, property, message, code } }];
}

/** A 404 for what is not there (or not shown): no body at all, as the SDKs expect it. */
export function expectEmptyNotFound(response: ApiResult, what?: string): void {
  expect(response.status, what).toBe(404);
  expect(response.text).toBe('');
}

/** Each path answers GET with the empty 404, still with the `Server: LevelUp` header of every answer. */
export async function expectEmptyNotFounds(api: TestApi, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const response = await api.call('GET', path);
    expectEmptyNotFound(response, path);
    expect(response.headers.get('server')).toBe('LevelUp');
  }
}
