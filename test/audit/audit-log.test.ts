/**
 * The audit log through HTTP (issue 38; docs/merchant-api.md, "Audit log"): who may read and export it, its paging
 * and filters, the CSV export's quoting (formula cells included), and that a refused request writes no entry.
 */
import { describe, expect, it } from 'vitest';
import { transactWrite } from '#shared/db/transactions.ts';
import { auditEntry, MAX_EXPORT_ROWS, type AuditContext } from '#shared/domain/audit/audit-log.ts';
import type { AuditAction } from '#shared/schemas/audit.ts';
import { useTestApi } from '../support/api.ts';
import { moneyWorld } from '../support/money.ts';
import { walkPages } from '../support/paging.ts';
import { merchantRoles } from '../support/staff.ts';

const api = useTestApi();

/** A merchant with one token per role, and another merchant's owner. */
async function auditWorld() {
  const world = await moneyWorld();
  return { ...world, ...(await merchantRoles(world)) };
}

/** Entries written as a change would write them (one transaction each), `at` their instants. */
async function writeEntries(merchantId: number, entries: { action: AuditAction; at: Date; context?: Partial<AuditContext['origin']>; after?: unknown }[]) {
  for (const entry of entries) {
    const context: AuditContext = {
      actor: { kind: 'shared_login' },
      origin: { sourceIp: '203.0.113.9', userAgent: 'test-pos/1.0', requestId: 'req-1', ...entry.context },
    };
    const outcome = await transactWrite(() => [
      auditEntry(context, { merchantId, action: entry.action, object: { type: 'location', id: 7 }, after: entry.after ?? { name: 'x' } }, entry.at),
    ]);
    expect(outcome.committed).toBe(true);
  }
}

const listPath = (merchantId: number, query = '') => `/v15/merchants/${merchantId}/audit_log${query}`;
const exportPath = (merchantId: number, query: string) => `/v15/merchants/${merchantId}/audit_log.csv${query}`;

describe('who may read the audit log', () => {
  it('owner and manager list it; staff is 403 role_not_allowed; the shared login 403; another merchant 401', async () => {
    const world = await auditWorld();
    await writeEntries(world.merchantId, [{ action: 'location.updated', at: new Date() }]);
    for (const token of [world.owner, world.manager]) {
      const listed = await api.call('GET', listPath(world.merchantId), { token });
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body).toHaveLength(1);
      expect(listed.body[0].audit_entry).toMatchObject({ action: 'location.updated', merchant_id: world.merchantId, actor: { kind: 'shared_login' } });
    }
    const staff = await api.call('GET', listPath(world.merchantId), { token: world.staff });
    expect(staff.status).toBe(403);
    expect(staff.body[0].error.code).toBe('role_not_allowed');
    const shared = await api.call('GET', listPath(world.merchantId), { token: world.merchant.token });
    expect(shared.status).toBe(403);
    expect(shared.body[0].error.code).toBe('staff_login_required');
    const other = await api.call('GET', listPath(world.merchantId), { token: world.otherOwner });
    expect(other.status).toBe(401);
    expect(other.text).not.toContain('location.updated');
  });

  it('only the owner exports it: manager and staff 403, another merchant 401', async () => {
    const world = await auditWorld();
    const query = '?from=2026-01-01&to=2026-02-01';
    expect((await api.call('GET', exportPath(world.merchantId, query), { token: world.owner })).status).toBe(200);
    for (const token of [world.manager, world.staff]) {
      const refused = await api.call('GET', exportPath(world.merchantId, query), { token });
      expect(refused.status).toBe(403);
      expect(refused.body[0].error.code).toBe('role_not_allowed');
    }
    expect((await api.call('GET', exportPath(world.merchantId, query), { token: world.otherOwner })).status).toBe(401);
  });
});

describe('paging and filters', () => {
  it('pages newest first by Link until 204, carrying the filters', async () => {
    const world = await auditWorld();
    const start = Date.parse('2026-03-01T00:00:00Z');
    // 60 location updates a minute apart, and 5 campaign creations between them.
    await writeEntries(world.merchantId, [
      ...Array.from({ length: 60 }, (_, index) => ({ action: 'location.updated' as const, at: new Date(start + index * 60_000) })),
      ...Array.from({ length: 5 }, (_, index) => ({ action: 'campaign.created' as const, at: new Date(start + index * 60_000 + 30_000) })),
    ]);
    const all = await walkPages<{ audit_entry: { id: string; created_at: string } }>(api, listPath(world.merchantId), {
      call: { token: world.owner },
      keyOf: (item) => item.audit_entry.id,
    });
    expect(all.items).toHaveLength(65);
    expect(all.pages[0]!.body).toHaveLength(50);
    const ids = all.items.map((item) => item.audit_entry.id);
    expect(ids).toEqual([...ids].sort().reverse());

    const campaigns = await walkPages<{ audit_entry: { action: string } }>(api, listPath(world.merchantId, '?action=campaign.created'), {
      call: { token: world.owner },
      keyOf: (item) => JSON.stringify(item),
      carries: ['action'],
    });
    expect(campaigns.items.map((item) => item.audit_entry.action)).toEqual(Array(5).fill('campaign.created'));

    // from inclusive, to exclusive: minutes 10 to 19 of the updates, and the campaigns at 10:30 ... none past 4:30.
    const window = await walkPages<{ audit_entry: { action: string } }>(
      api,
      listPath(world.merchantId, '?from=2026-03-01T00:10:00Z&to=2026-03-01T00:20:00Z&action=location.updated'),
      { call: { token: world.manager }, keyOf: (item) => JSON.stringify(item), carries: ['from', 'to', 'action'] },
    );
    expect(window.items).toHaveLength(10);
  });

  it('refuses bad filters with 422 in the error format, and an unknown action', async () => {
    const world = await auditWorld();
    for (const query of ['?action=order.stolen', '?from=yesterday', '?from=2026-03-02&to=2026-03-01', '?staff_id=-1', `?from=${'9'.repeat(50)}`]) {
      const refused = await api.call('GET', listPath(world.merchantId, query), { token: world.owner });
      expect(refused.status, query).toBe(422);
      expect(refused.body[0].error).toMatchObject({ object: expect.any(String), property: expect.any(String), message: expect.any(String) });
    }
  });
});

describe('CSV export', () => {
  it('gives a next-page Link only when another entry follows: a range of exactly one page has none', async () => {
    const world = await auditWorld();
    const at = new Date('2026-05-10T12:00:00Z').getTime();
    await writeEntries(
      world.merchantId,
      Array.from({ length: MAX_EXPORT_ROWS }, (_, index) => ({ action: 'location.updated' as const, at: new Date(at + index * 1000) })),
    );
    const query = '?from=2026-05-10&to=2026-05-11';
    const full = await api.call('GET', exportPath(world.merchantId, query), { token: world.owner });
    expect(full.status, full.text).toBe(200);
    expect(full.text.split('\r\n').filter(Boolean)).toHaveLength(MAX_EXPORT_ROWS + 1);
    expect(full.headers.get('link')).toBeNull();

    await writeEntries(world.merchantId, [{ action: 'location.updated', at: new Date(at + MAX_EXPORT_ROWS * 1000) }]);
    const first = await api.call('GET', exportPath(world.merchantId, query), { token: world.owner });
    expect(first.text.split('\r\n').filter(Boolean)).toHaveLength(MAX_EXPORT_ROWS + 1);
    const link = first.headers.get('link');
    expect(link).toMatch(/rel="next"/);
    const nextPath = new URL(/<([^>]+)>/.exec(link!)![1]!, api.baseUrl);
    const second = await api.call('GET', `${nextPath.pathname}${nextPath.search}`, { token: world.owner });
    expect(second.status, second.text).toBe(200);
    expect(second.text.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(second.headers.get('link')).toBeNull();
  });

  it('quotes commas, quotes and line breaks, and defuses formula cells with a leading quote', async () => {
    const world = await auditWorld();
    const at = new Date('2026-04-10T12:00:00Z');
    await writeEntries(world.merchantId, [
      { action: 'location.updated', at, context: { userAgent: '=HYPERLINK("http://evil.example","x")' } },
      { action: 'location.updated', at: new Date(at.getTime() + 1000), context: { userAgent: '+1,2\nthree', sourceIp: '@sum' } },
      { action: 'location.updated', at: new Date(at.getTime() + 2000), after: { name: '-2+3' } },
    ]);
    const exported = await api.call('GET', exportPath(world.merchantId, '?from=2026-04-10&to=2026-04-11'), { token: world.owner });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(exported.headers.get('link')).toBeNull();
    const lines = exported.text.split('\r\n');
    expect(lines[0]).toBe('id,created_at,action,actor,staff_id,role,object_type,object_id,approved_by_staff_id,source_ip,user_agent,request_id,before,after');
    expect(exported.text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(exported.text).toContain(`,'@sum,"'+1,2\nthree",`);
    // JSON cells start with { and are quoted for their quotes; nothing else begins with a formula character.
    expect(exported.text).toContain('"{""name"":""-2+3""}"');
    expect(exported.text.endsWith('\r\n')).toBe(true);
    // Oldest first.
    expect(exported.text.indexOf('HYPERLINK')).toBeLessThan(exported.text.indexOf('@sum'));
  });

  it('requires a range of at most 92 days', async () => {
    const world = await auditWorld();
    for (const query of ['', '?from=2026-01-01', '?from=2026-01-01&to=2026-04-04', '?from=2026-02-01&to=2026-01-01']) {
      const refused = await api.call('GET', exportPath(world.merchantId, query), { token: world.owner });
      expect(refused.status, query).toBe(422);
    }
    expect((await api.call('GET', exportPath(world.merchantId, '?from=2026-01-01&to=2026-04-03'), { token: world.owner })).status).toBe(200);
  });
});
