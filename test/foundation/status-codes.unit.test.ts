import { STATUS_CODES as NODE_STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import { STATUS_CODES } from '#shared/http/status-codes.ts';

describe("the bundles' node:http stand-in (shared/http/status-codes.ts)", () => {
  it("is the same table as Node's http.STATUS_CODES", () => {
    expect({ ...STATUS_CODES }).toEqual({ ...NODE_STATUS_CODES });
  });
});
