/**
 * Turns one run's results into the terminal table, docs/benchmarks.md (figures beside their targets)
 * and docs/cost.md (cost of one million requests per endpoint from the measured round trips and
 * capacity). bench/notes.md, written by hand, is appended to docs/benchmarks.md as the analysis.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUNCTION_MEMORY_MB } from '../../infra/constructs/api-function.ts';
import { currentMemorySection, ONE_VCPU_MB, withMemorySection } from '../memory/memory-section.ts';
import { ACCESS_LOG_FIELDS } from '../../infra/constructs/http-api.ts';
import { DEFAULT_MEMORY_MB, routes } from '#shared/routes.ts';
import { BUSINESS_METRICS, METRIC_DIMENSIONS } from '#shared/metrics.ts';
import type { BenchResults, EndpointRow, EndpointRun } from '../types.ts';
import type { PageCost } from './history.ts';
import { BASELINE, type ColdStartRow } from '../cold-start/cold-start.ts';
import { round } from '../harness/measure.ts';
import { SHAPED_READS, LARGE_ITEM_BYTES } from '../floors/read-shape.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const TARGETS = {
  /**
   * Overhead ratio at concurrency 1, by kind: a read is a GET route, a write any other method. At
   * concurrency 16 the ratio must be "no worse": within the same target as at concurrency 1.
   */
  overheadRatio: { read: 1.3, write: 1.5 },
  orderAheadP50Ms: 300,
  /** Cold start: each function's process start -> served at most this many times its own cold twin's (bench/cold-start/cold-twin.ts), issue 35. */
  coldStartTwinRatio: 1.15,
  /** Each function's import (module initialisation) at most this many ms above the baseline's (bundled the same way). */
  importMsOverBaseline: 5,
  /** Each bundle, minified, in KiB, not counting the AWS SDK when it is bundled (ColdStartRow.sdkBytes). */
  bundleKiB: 120,
};

/** A function's three cold-start verdicts (null: not measured); the baseline and the reference rows have none. */
export function coldStartVerdicts(
  row: ColdStartRow,
  baselineImportMs: number | undefined,
): { twin: boolean | null; import: boolean | null; bundle: boolean | null; importOverMs?: number } {
  const importOverMs = row.importMs === undefined || baselineImportMs === undefined ? undefined : round(row.importMs - baselineImportMs, 1);
  return {
    twin: row.twinRatio === undefined ? null : row.twinRatio <= TARGETS.coldStartTwinRatio,
    import: importOverMs === undefined ? null : importOverMs <= TARGETS.importMsOverBaseline,
    bundle: row.bundleBytes === undefined ? null : ownBundleBytes(row) <= TARGETS.bundleKiB * 1024,
    ...(importOverMs === undefined ? {} : { importOverMs }),
  };
}

/** A bundle's bytes less the AWS SDK's, when it is bundled. */
export function ownBundleBytes(row: Pick<ColdStartRow, 'bundleBytes' | 'sdkBytes'>): number {
  return (row.bundleBytes ?? 0) - (row.sdkBytes ?? 0);
}

/** The functions' rows (not the baseline's) and the baseline's import. */
function coldStartFunctions(results: BenchResults): { functions: ColdStartRow[]; baselineImportMs?: number } {
  const baselineImportMs = results.coldStarts.find((row) => row.available && row.handler === BASELINE)?.importMs;
  return { functions: results.coldStarts.filter((row) => row.available && row.route !== '-'), ...(baselineImportMs === undefined ? {} : { baselineImportMs }) };
}

export type EndpointKind = 'read' | 'write';

/** GET routes are reads; every other method writes something. */
export function endpointKind(row: Pick<EndpointRow, 'route'>): EndpointKind {
  return row.route.startsWith('GET ') ? 'read' : 'write';
}

export function overheadTarget(row: Pick<EndpointRow, 'route'>): number {
  return TARGETS.overheadRatio[endpointKind(row)];
}

/**
 * us-east-1 list prices as known on PRICES_AS_OF; check them against the AWS pricing pages before
 * relying on the totals.
 */
export const PRICES_AS_OF = '2025-06 (from memory of the AWS pricing pages; verify before use)';
export const PRICES = {
  lambdaPerMillionRequests: 0.2,
  lambdaArmPerGbSecond: 0.0000133334,
  httpApiPerMillionRequests: 1.0,
  dynamoPerMillionWriteUnits: 0.625,
  dynamoPerMillionReadUnits: 0.125,
  expressPerMillionRequests: 1.0,
  expressPerGbSecond: 0.00001667,
  /** Express bills memory in 64 MB steps and duration in 100 ms steps. */
  expressMemoryGb: 64 / 1024,
};

/** Prices of what issue 18 (observability) and the per-client limits (issue 12) add; us-east-1 list prices, same caveat. */
export const OBSERVABILITY_PRICES = {
  alarmPerMetricMonth: 0.1,
  dashboardMonth: 3,
  customMetricMonth: 0.3,
  logsIngestedPerGb: 0.5,
  xrayPerMillionTracesRecorded: 5,
  kmsKeyMonth: 1,
  cloudFrontPerMillionHttpsRequests: 1,
  cloudFrontPerGbOut: 0.085,
  wafWebAclMonth: 5,
  wafRuleMonth: 1,
  wafPerMillionRequests: 0.6,
};

const dash = '-';
/** `count` empty cells of a table row. */
const dashes = (count: number): string[] => Array<string>(count).fill(dash);

function fmt(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || Number.isNaN(value)) return dash;
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

/** `2.31 (1.02)`: an endpoint's CPU figure and, in parentheses, the baseline endpoint's measured next to it (absent in older results). */
export function withBaseline(endpoint: number | null | undefined, baseline: number | null | undefined): string {
  return baseline == null ? fmt(endpoint) : `${fmt(endpoint)} (${fmt(baseline)})`;
}

function markdownTable(headers: string[], rows: string[][]): string {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [`| ${headers.join(' | ')} |`, `| ${headers.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`)].join('\n');
}

function verdict(met: boolean | null): string {
  return met === null ? dash : met ? 'met' : '**MISSED**';
}

/**
 * How a run's ratio was judged when its first measurement missed (bench/harness/repeat.ts): `median of 3 (1.42, 1.25, 1.20)`
 * over the trials' ratios in order, or why it was not measured again; empty for a single measurement that met.
 */
export function repeatText(run: Pick<EndpointRun, 'trials' | 'notRepeatable'>): string {
  if (run.trials && run.trials.length > 1) return `median of ${run.trials.length} (${run.trials.map((trial) => fmt(trial.overheadRatio)).join(', ')})`;
  return run.notRepeatable ?? '';
}

function callsText(calls: Record<string, number>): string {
  return Object.entries(calls)
    .map(([operation, count]) => `${operation} ${fmt(count)}`)
    .join(', ');
}

/** ` / Query 3.1 (11 x 724 B, 16 attributes; 1 such call per request)` for each shaped read the run's floor priced. */
export function shapedReadsText(run: EndpointRun): string {
  return SHAPED_READS.flatMap((operation) => {
    const floor = run.adjacentFloor.reads?.[operation];
    return floor === undefined ? [] : [{ operation, ...floor }];
  })
    .map(({ operation, p50, shape }) => {
      const calls = run.load.readShapes?.[operation]?.callsPerRequest;
      return ` / ${operation} ${fmt(p50)} (${shape.parallelCalls > 1 ? `${shape.parallelCalls} at once, each ` : ''}${shape.items} x ${shape.bytesPerItem} B, ${shape.attributesPerItem} attributes${calls === undefined ? '' : `; ${fmt(calls)} such call${calls === 1 ? '' : 's'} per request`})`;
    })
    .join('');
}

/** ` / twin 4.10 (GetItem|Query; 2 round trips; CPU 1.20 ms, server 1.35 ms / req)`: the twin measured next to the run. */
export function twinText(run: EndpointRun): string {
  const twin = run.adjacentFloor.twin;
  if (!twin) return '';
  const cpu = [
    run.concurrency === 1 && twin.handlerCpuMs !== undefined ? `CPU ${fmt(twin.handlerCpuMs)} ms` : undefined,
    twin.serverCpuMs === undefined ? undefined : `server ${fmt(twin.serverCpuMs)} ms / req`,
  ]
    .filter(Boolean)
    .join(', ');
  return ` / twin ${fmt(twin.p50)} (${twin.calls}; ${fmt(twin.roundTrips)} round trip${twin.roundTrips === 1 ? '' : 's'}${twin.capacityUnits === undefined ? '' : `, ${fmt(twin.capacityUnits)} CU`}${twin.dynamoMs === undefined ? '' : `, ${fmt(twin.dynamoMs)} ms in DynamoDB`}${cpu ? `; ${cpu}` : ''})`;
}

/** `4.10 twin (3.20 priced)` when the ratio used the twin, else the priced floor alone. */
export function floorText(run: EndpointRun): string {
  return run.floorKind === 'twin' ? `${fmt(run.floorMs)} twin (${fmt(run.pricedFloorMs)} priced)` : fmt(run.floorMs);
}

function runAt(row: EndpointRow, concurrency: number) {
  return row.runs.find((run) => run.concurrency === concurrency);
}

export function terminalTable(results: BenchResults): string {
  const headers = [
    'endpoint',
    'c',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'req/s',
    'round trips',
    'CU/req',
    'handler CPU ms (baseline)',
    'server CPU ms/req (baseline)',
    'twin CPU ms (handler / server)',
    'in DynamoDB ms',
    'overhead (priced)',
    'target',
  ];
  const rows: string[][] = [];
  for (const floor of results.floor.start) {
    rows.push([
      `floor ${floor.operation}`,
      String(floor.concurrency),
      fmt(floor.summary.p50),
      fmt(floor.summary.p95),
      fmt(floor.summary.p99),
      fmt(floor.summary.rps, 0),
      '1',
      fmt(floor.capacityUnits),
      ...dashes(6),
    ]);
  }
  for (const row of results.endpoints) {
    if (!row.available) {
      rows.push([row.id, dash, row.note ?? 'not available', '', '', '', '', '', '']);
      continue;
    }
    for (const run of row.runs) {
      const summary = run.load.summary;
      const target = overheadTarget(row);
      rows.push([
        row.id,
        String(run.concurrency),
        fmt(summary.p50),
        fmt(summary.p95),
        fmt(summary.p99),
        fmt(summary.rps, 0),
        fmt(run.load.roundTrips),
        fmt(run.load.capacityUnits),
        run.concurrency === 1 ? withBaseline(run.load.handlerCpuMs, run.adjacentFloor.baselineHandlerCpuMs) : dash,
        withBaseline(run.load.serverCpuMs, run.adjacentFloor.baselineServerCpuMs),
        run.adjacentFloor.twin
          ? `${run.concurrency === 1 ? fmt(run.adjacentFloor.twin.handlerCpuMs) : dash} / ${fmt(run.adjacentFloor.twin.serverCpuMs)}`
          : dash,
        fmt(run.load.dynamoMs),
        (run.floorKind === 'twin' ? `${fmt(run.overheadRatio)} twin (${fmt(run.pricedOverheadRatio)})` : fmt(run.overheadRatio)) +
          (repeatText(run) ? ` ${repeatText(run)}` : ''),
        // A row whose answers were not the ones expected measured something else: it meets nothing.
        row.note ? `FAILED: ${row.note.slice(0, 40)}` : `${run.overheadRatio === null ? dash : run.overheadRatio <= target ? 'met' : 'MISSED'} (<= ${target})`,
      ]);
    }
  }
  if (results.orderAhead.available) {
    for (const run of results.orderAhead.runs) {
      rows.push([
        'order ahead start->200',
        String(run.concurrency),
        fmt(run.summary.p50),
        fmt(run.summary.p95),
        fmt(run.summary.p99),
        fmt(run.summary.rps, 1),
        `${fmt(run.startRoundTrips)}+${fmt(run.pollRoundTrips)}/poll`,
        ...dashes(7),
      ]);
    }
  } else {
    rows.push(['order ahead start->200', dash, results.orderAhead.note ?? 'not available', '', '', '', '', '', '']);
  }
  const widths = headers.map((header, index) => Math.max(header.length, ...rows.map((row) => Math.min(60, (row[index] ?? '').length))));
  const line = (cells: string[]) => cells.map((cell, index) => (cell.length > 60 ? `${cell.slice(0, 57)}...` : cell).padEnd(widths[index]!)).join('  ');
  const { functions, baselineImportMs } = coldStartFunctions(results);
  const missed = (target: 'twin' | 'import' | 'bundle') => functions.filter((row) => coldStartVerdicts(row, baselineImportMs)[target] === false).length;
  return [
    line(headers),
    line(headers.map((_, index) => '-'.repeat(widths[index]!))),
    ...rows.map(line),
    '',
    `cold starts: ${functions.length} functions; over ${TARGETS.coldStartTwinRatio}x their cold twin: ${missed('twin')}; import over the baseline's + ${TARGETS.importMsOverBaseline} ms: ${missed('import')}; bundle over ${TARGETS.bundleKiB} KiB: ${missed('bundle')}`,
    `throttling: ${results.throttling}`,
  ].join('\n');
}

function endpointSection(results: BenchResults): string {
  const headers = [
    'Endpoint',
    'Route',
    'c',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'req/s',
    'n',
    'Handler CPU ms / req (median, c=1) (baseline endpoint)',
    'Server CPU ms / req (gateway + handler) (baseline endpoint)',
    'In DynamoDB ms / req (median)',
    'Outside DynamoDB ms (p50 - in DynamoDB)',
    'DynamoDB calls / req',
    'Round trips (min)',
    'Round-trip target',
    'CU / req (read + write)',
    "Adjacent floor p50 ms: baseline endpoint / GetItem / Transact (items per transaction) [/ Query, BatchGetItem of the endpoint's shape (items x bytes, attributes per item)] [/ write: a conditional UpdateItem] [/ StartExecution] [/ password hash] [/ twin (its replayed calls; round trips, CU, in DynamoDB ms; handler CPU ms at c=1, server CPU ms / req)]",
    'Floor ms (reads with a twin: twin (priced))',
    `Overhead ratio (target: read <= ${TARGETS.overheadRatio.read}, write <= ${TARGETS.overheadRatio.write}, at c=1 and c=16) [ratio to the priced floor] [median of 3 when the first measurement missed]`,
  ];
  const rows: string[][] = [];
  for (const row of results.endpoints) {
    if (!row.available) {
      rows.push([
        row.title,
        row.route,
        dash,
        row.note ?? 'not available',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        `(${row.minimum.roundTrips})`,
        dash,
        '',
        '',
        '',
        '',
      ]);
      continue;
    }
    for (const run of row.runs) {
      const load = run.load;
      const roundTripsMet = load.roundTrips === null ? null : load.roundTripsMax! <= row.minimum.roundTrips;
      const ratioCell = `${fmt(run.overheadRatio)} ${verdict(run.overheadRatio === null ? null : run.overheadRatio <= overheadTarget(row))} (${endpointKind(row)}${run.floorKind === 'twin' ? `, twin; priced ${fmt(run.pricedOverheadRatio)}` : ''}${repeatText(run) ? `; ${repeatText(run)}` : ''})`;
      rows.push([
        row.title,
        row.route,
        String(run.concurrency),
        fmt(load.summary.p50),
        fmt(load.summary.p95),
        fmt(load.summary.p99),
        fmt(load.summary.rps, 0),
        String(load.summary.count),
        run.concurrency === 1 ? withBaseline(load.handlerCpuMs, run.adjacentFloor.baselineHandlerCpuMs) : dash,
        withBaseline(load.serverCpuMs, run.adjacentFloor.baselineServerCpuMs),
        fmt(load.dynamoMs),
        load.dynamoMs == null ? dash : fmt(round(load.summary.p50 - load.dynamoMs, 2)),
        callsText(load.calls),
        `${fmt(load.roundTrips)} (${row.minimum.roundTrips})`,
        run.concurrency === 1 ? verdict(roundTripsMet) : dash,
        `${fmt(load.capacityUnits)} (${fmt(load.readUnits)} + ${fmt(load.writeUnits)})`,
        `${run.adjacentFloor.baselineP50 === undefined ? dash : fmt(run.adjacentFloor.baselineP50)} / ${fmt(run.adjacentFloor.getItemP50)} / ${fmt(run.adjacentFloor.transactWriteP50)}${run.adjacentFloor.transactItems ? ` (${run.adjacentFloor.transactItems} items${run.adjacentFloor.transactBytes === undefined ? '' : `, ${fmt(run.adjacentFloor.transactBytes, 0)} B`})` : ''}${shapedReadsText(run)}${run.adjacentFloor.singleWriteP50 === undefined ? '' : ` / write ${fmt(run.adjacentFloor.singleWriteP50)}`}${run.adjacentFloor.startExecutionP50 === undefined ? '' : ` / StartExecution ${fmt(run.adjacentFloor.startExecutionP50)}${run.load.startExecutions === undefined ? '' : ` (${fmt(run.load.startExecutions)} per request)`}`}${run.adjacentFloor.passwordHashP50 === undefined ? '' : ` / hash ${fmt(run.adjacentFloor.passwordHashP50)}`}${twinText(run)}`,
        floorText(run),
        ratioCell,
      ]);
    }
  }
  const notes = results.endpoints.filter((row) => row.available && row.note).map((row) => `- ${row.title}: ${row.note}`);
  const minimums = results.endpoints.map((row) => `- ${row.title}: ${row.minimum.roundTrips} round trips: ${row.minimum.rationale}.`);
  return [
    markdownTable(headers, rows),
    '',
    'Minimum round trips per endpoint (the round-trip target):',
    '',
    ...minimums,
    ...(notes.length > 0 ? ['', 'Unexpected responses during the runs:', '', ...notes] : []),
  ].join('\n');
}

function floorSection(results: BenchResults): string {
  const rows = [
    ...results.floor.start.map((floor) => ['before endpoints', floor] as const),
    ...results.floor.end.map((floor) => ['after endpoints', floor] as const),
  ].map(([when, floor]) => [
    floor.operation,
    String(floor.concurrency),
    when,
    fmt(floor.summary.p50),
    fmt(floor.summary.p95),
    fmt(floor.summary.p99),
    fmt(floor.summary.rps, 0),
    String(floor.summary.count),
    fmt(floor.capacityUnits),
  ]);
  return markdownTable(['Operation', 'c', 'When', 'p50 ms', 'p95 ms', 'p99 ms', 'ops/s', 'n', 'CU / op'], rows);
}

function orderAheadSection(results: BenchResults): string {
  if (!results.orderAhead.available) return `Not available: ${results.orderAhead.note ?? 'not measured'}.`;
  const rows = results.orderAhead.runs.map((run) => [
    String(run.concurrency),
    fmt(run.summary.p50),
    fmt(run.summary.p95),
    fmt(run.summary.p99),
    String(run.summary.count),
    `${fmt(run.startRoundTrips)} / ${fmt(run.startCapacityUnits)}`,
    `${fmt(run.pollRoundTrips)} / ${fmt(run.pollCapacityUnits)}`,
    run.concurrency === 1 ? verdict(run.summary.p50 <= TARGETS.orderAheadP50Ms) : dash,
    run.errors ? `${run.errors}: ${run.firstError}` : '0',
  ]);
  return markdownTable(
    [
      'c',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'flows',
      'start: round trips / CU',
      'poll (200): round trips / CU',
      `Target p50 <= ${TARGETS.orderAheadP50Ms} ms`,
      'errors',
    ],
    rows,
  );
}

function pagingRows(pages: PageCost[]): string[][] {
  return pages.map((page) => [
    page.label,
    String(page.records),
    String(page.page),
    page.how === 'first' ? 'first request' : page.how === 'link' ? 'followed Link' : '`page=50` only',
    String(page.status),
    String(page.items),
    fmt(page.roundTrips),
    fmt(page.capacityUnits),
    fmt(page.latencyMs),
    page.nextLink ? page.nextLink.replace(/^https?:\/\/[^/]+/, '') : dash,
  ]);
}

function pagingVerdict(pages: PageCost[], records: number): string {
  const first10 = pages.find((page) => page.records === 10 && page.page === 1);
  const firstMany = pages.find((page) => page.records === records && page.page === 1);
  const linked = pages.find((page) => page.records === records && page.how === 'link');
  if (!first10 || !firstMany || !linked) return 'incomplete (see the rows)';
  const sameAtBothSizes = first10.capacityUnits === firstMany.capacityUnits;
  const sameWhenDeep = linked.capacityUnits === firstMany.capacityUnits;
  return `same cost at 10 and ${records} records: ${verdict(sameAtBothSizes)} (page 1: ${fmt(first10.capacityUnits)} CU vs ${fmt(firstMany.capacityUnits)} CU); page 50 by Link costs what page 1 does: ${verdict(sameWhenDeep)} (${fmt(linked.capacityUnits)} CU vs ${fmt(firstMany.capacityUnits)} CU)`;
}

function historySection(results: BenchResults): string {
  const history = results.history;
  if ('unavailable' in history) return `Not available: ${history.unavailable}.`;
  const parts: string[] = [];
  const headers = ['List', 'Records', 'Page', 'Reached by', 'Status', 'Items', 'Round trips', 'CU', 'Latency ms (median of 5)', 'Next link'];
  for (const [name, pages] of [
    ["Users' orders", history.orders],
    ["An app's locations", history.locations],
  ] as const) {
    if ('unavailable' in pages) {
      parts.push(`${name}: not available (${pages.unavailable}).`);
      continue;
    }
    parts.push(
      `${name} — cost per page does not grow with history (target): ${pagingVerdict(pages, history.records)}`,
      '',
      markdownTable(headers, pagingRows(pages)),
      '',
    );
  }
  if (history.scans.length > 0) {
    parts.push(
      'No scans (target): the same read on the small table and after the paging data was added; a Scan would cost more on the bigger table.',
      '',
      markdownTable(
        ['Read', `CU (before)`, `CU (after +${history.records * 2} items)`, 'Round trips before / after', 'Target'],
        history.scans.map((scan) => [
          scan.label,
          fmt(scan.capacityBefore),
          fmt(scan.capacityAfter),
          `${fmt(scan.roundTripsBefore)} / ${fmt(scan.roundTripsAfter)}`,
          verdict(scan.capacityBefore === null ? null : scan.capacityBefore === scan.capacityAfter),
        ]),
      ),
    );
  } else {
    parts.push('No-scan check of rewards and campaigns: not available (the seed did not create the campaign).');
  }
  return parts.join('\n');
}

function coldStartSection(results: BenchResults): string {
  const { baselineImportMs } = coldStartFunctions(results);
  const rows = results.coldStarts.map((row) => {
    const bundle =
      row.bundleBytes === undefined
        ? dash
        : `${fmt(row.bundleBytes / 1024, 1)}${row.sdkBytes ? ` (${fmt(ownBundleBytes(row) / 1024, 1)} without the SDK)` : ''}`;
    if (!row.available)
      return [row.handler, row.route, bundle, row.largestInputs ?? '', dash, dash, dash, dash, dash, dash, dash, dash, `not available: ${row.note ?? ''}`];
    const verdicts = row.route === '-' ? undefined : coldStartVerdicts(row, baselineImportMs);
    return [
      row.handler,
      row.route,
      bundle,
      row.largestInputs ?? '',
      fmt(row.importMs, 1),
      verdicts?.importOverMs === undefined ? dash : fmt(verdicts.importOverMs, 1),
      fmt(row.firstRequestMs, 1),
      fmt(row.totalMs, 1),
      fmt(row.twinTotalMs, 1),
      row.twinRatio === undefined ? dash : `${fmt(row.twinRatio)} (CPU ${fmt(row.twinCpuRatio)}; ${row.twinRuns} rounds)`,
      row.roundTrips === undefined ? dash : `${fmt(row.roundTrips)} / ${row.twinRoundTrips === undefined ? dash : fmt(row.twinRoundTrips)}`,
      verdicts ? `twin ${verdict(verdicts.twin)}, import ${verdict(verdicts.import)}, bundle ${verdict(verdicts.bundle)}` : dash,
      `${row.status ?? dash}${row.note ? `; ${row.note}` : ''}`,
    ];
  });
  return markdownTable(
    [
      'Function',
      'Route',
      `Bundle KiB (minified; target <= ${TARGETS.bundleKiB} without the AWS SDK)`,
      'Largest parts (KiB)',
      'Import ms',
      `Import ms over the baseline's (target <= ${TARGETS.importMsOverBaseline})`,
      'First request ms',
      'Process start -> served ms',
      'Cold twin: start -> served ms',
      `Ratio to its cold twin (target <= ${TARGETS.coldStartTwinRatio}; median of the rounds' ratios)`,
      'DynamoDB calls, function / twin',
      'Targets',
      'Status served; note',
    ],
    rows,
  );
}

function summarySection(results: BenchResults): string {
  const missed: string[] = [];
  for (const row of results.endpoints) {
    const run = runAt(row, 1);
    if (!row.available || !run) continue;
    if (row.note) missed.push(`${row.title}: ${row.note}.`);
    if (run.load.roundTripsMax !== null && run.load.roundTripsMax > row.minimum.roundTrips) {
      missed.push(
        `${row.title}: ${fmt(run.load.roundTrips)} round trips (${callsText(run.load.calls)}) where the minimum is ${row.minimum.roundTrips} (${row.minimum.rationale}).`,
      );
    }
    const target = overheadTarget(row);
    for (const measured of row.runs) {
      if (measured.overheadRatio !== null && measured.overheadRatio > target) {
        missed.push(
          `${row.title}: overhead ratio ${fmt(measured.overheadRatio)}${repeatText(measured) ? `, ${repeatText(measured)},` : ''} at c=${measured.concurrency} (${endpointKind(row)}: target <= ${target}${measured.floorKind === 'twin' ? `; to its twin (${fmt(measured.pricedOverheadRatio)} to the priced floor)` : ''}${run.load.handlerCpuMs == null ? '' : `; handler CPU ${fmt(run.load.handlerCpuMs)} ms per request at c=1`}).`,
        );
      }
    }
  }
  const { functions, baselineImportMs } = coldStartFunctions(results);
  const coldMisses = (target: 'twin' | 'import' | 'bundle', figure: (row: ColdStartRow) => string) => {
    const rows = functions.filter((row) => coldStartVerdicts(row, baselineImportMs)[target] === false);
    return rows.length === 0 ? [] : [`${rows.length} of ${functions.length} functions: ${rows.map((row) => `${row.handler} ${figure(row)}`).join(', ')}.`];
  };
  missed.push(
    ...coldMisses('twin', (row) => `${fmt(row.twinRatio)}`).map((line) => `Cold start over ${TARGETS.coldStartTwinRatio}x the cold twin's: ${line}`),
    ...coldMisses('import', (row) => `+${fmt(coldStartVerdicts(row, baselineImportMs).importOverMs, 1)} ms`).map(
      (line) => `Import over the baseline's + ${TARGETS.importMsOverBaseline} ms: ${line}`,
    ),
    ...coldMisses('bundle', (row) => `${fmt(ownBundleBytes(row) / 1024, 1)} KiB (${row.largestInputs?.split(',')[0] ?? ''})`).map(
      (line) => `Bundle over ${TARGETS.bundleKiB} KiB: ${line}`,
    ),
  );
  const orderAheadC1 = results.orderAhead.runs.find((run) => run.concurrency === 1);
  if (orderAheadC1 && orderAheadC1.summary.p50 > TARGETS.orderAheadP50Ms)
    missed.push(`Order ahead start -> 200: p50 ${fmt(orderAheadC1.summary.p50)} ms (target <= ${TARGETS.orderAheadP50Ms}).`);
  const unavailable = [
    ...results.endpoints.filter((row) => !row.available).map((row) => `${row.title} (${row.note})`),
    ...(results.orderAhead.available ? [] : [`Order ahead start -> 200 (${results.orderAhead.note})`]),
  ];
  return [
    missed.length === 0
      ? 'Every measured figure meets its target.'
      : `Targets missed in this run (${missed.length}):\n\n${missed.map((line) => `- ${line}`).join('\n')}`,
    ...(unavailable.length > 0 ? ['', `Not measured in this run (${unavailable.length}):`, '', ...unavailable.map((line) => `- ${line}`)] : []),
  ].join('\n');
}

function benchmarksMarkdown(results: BenchResults, resultsPath: string): string {
  const machine = results.machine;
  const notesFile = join(ROOT, 'bench', 'notes.md');
  const notes = existsSync(notesFile) ? readFileSync(notesFile, 'utf8').trim() : '';
  return `# Benchmarks

Generated by \`${results.command}\` on ${results.date} (${results.mode} run, ${results.durationSeconds} s). Raw figures: [\`${resultsPath}\`](../${resultsPath}).
Do not edit by hand: re-run the command. The analysis at the end comes from \`bench/notes.md\`.

## Method in one screen

- **What**: every hot path of the API (the endpoints in \`bench/scenarios/scenarios.ts\`, each as the contract and the real clients send it) at concurrency 1 and 16; the order-ahead start -> 200 flow; paging cost at ${results.plan.historyRecords.toLocaleString('en-US')} records of history; each function's cold start and bundle size.
- **Where**: its own stack on fresh data: DynamoDB Local in memory, a new table, the real handlers behind the local gateway (throttling off) in one child process, request logs on as deployed. Never the deployed stack.
- **How**: autocannon, closed loop, ${results.plan.durationMs / 1000} s per endpoint and concurrency after ${results.plan.warmupRequests} warm-up requests. Each endpoint is divided by its **floor**, measured right before and right after its run at the same concurrency: for a read with a faithful twin, its own recorded DynamoDB calls replayed without the handler; otherwise a bare baseline endpoint (the HTTP hop plus one GetItem) plus each of its other calls priced at a bare call of its kind and shape. The ratio is therefore the handler's own work (middy, validation, auth, domain, serialisation, log line).
- **Targets**: overhead ratio at c=1 <= ${TARGETS.overheadRatio.read} for reads (GET) and <= ${TARGETS.overheadRatio.write} for writes, and no worse at c=16 (a ratio that misses is measured twice more right away and judged by the median of the three: **a change of method**, issue 36, 2026-12-06); round trips per request equal the documented minimum; order ahead p50 <= ${TARGETS.orderAheadP50Ms} ms; a cold start at most ${TARGETS.coldStartTwinRatio} x its cold twin's, import at most ${TARGETS.importMsOverBaseline} ms above the baseline's, each bundle at most ${TARGETS.bundleKiB} KiB.
- **Run**: \`npm run bench\` (full) or \`-- --quick\` (a sanity run of every figure; rough); \`-- --only=<scenario ids>\`, \`-- --cold-start\`, \`-- --report-only\` (re-renders this page from \`bench/results\` and \`bench/notes.md\`); \`npm run bench:memory\` for the memory per function. Code: \`bench/harness\` (stack, server, load), \`bench/floors\`, \`bench/scenarios\`, \`bench/cold-start\`, \`bench/memory\`, \`bench/report\`.

The details of each step follow; the figures come after them.

Machine: ${machine.cores} x ${machine.cpuModel}, ${machine.memoryGb} GB memory (${machine.freeMemoryGbAtStart} GB free at start), Node ${machine.node}, ${machine.platform}.
Load average at start ${machine.loadAverageAtStart.join(' / ')}, at end ${machine.loadAverageAtEnd.join(' / ')} (a shared, noisy machine: compare ratios measured in the same run, not absolute figures across runs).

## How it was measured

- Its own stack on fresh data: DynamoDB Local in memory, a new table from \`shared/db/table-definition.ts\`, the real handlers behind the local gateway in a child process with **stage throttling disabled** (\`createGateway({ throttling: false })\`) and \`DYNAMODB_STATS=1\` (round trips and consumed capacity per request from the \`X-DynamoDB-*\` headers; \`bench/harness/server.ts\` adds which operations ran and the read/write split). Request logs on, as deployed.
- Load: autocannon, closed loop, ${results.mode === 'quick' ? 'quick mode (short runs; figures are rough)' : 'full mode'}: ${results.plan.durationMs / 1000} s per endpoint and concurrency (${results.plan.consumable[1]} / ${results.plan.consumable[16]} requests for endpoints that use up prepared data), after ${results.plan.warmupRequests} warm-up requests. Latencies are exact (not autocannon's whole-millisecond histogram). n = requests measured.
- Floor: a bare GetItem (a token item) and a bare two-item TransactWriteItems (guarded balance update + new entry) through the handlers' own document client, at the same concurrency. Measured for ${results.plan.floorMs / 1000} s before and after all endpoints (the table below), and again right next to each endpoint run, once right before it and once right after it, each time for ${results.plan.adjacentFloorMs / 1000} s and at least 40 samples: each overhead ratio uses that adjacent floor, at the mean of its two p50s, because the machine's load drifts over the minutes of a run and even within one run (**a change of method**, 2026-11-23: runs before it measured the adjacent floors once, right before the run, for 0.75 s; in the full run at 2935a3e a GetItem floor measured in a burst of load came out at 3.66 ms next to a bare one-item Query of 2.61 ms, and priced the run after it. Measuring on both sides cancels a drift during the run and halves a burst's weight; both sides' p50s are in the results file, \`adjacentFloor.sides\`). The transaction floor is measured only for endpoints whose warm-up made TransactWriteItems or BatchWriteItem calls (nothing else is priced at it).
- Baseline endpoint: \`bench/harness/baseline-handler.ts\`, a bare handler that makes one GetItem through the same client (no middy, no validation, no log line), served by the bench's gateway only (\`GET /bench/baseline\`, an extra route of \`bench/harness/server.ts\`, never in \`shared/routes.ts\` nor deployed) and loaded by autocannon for ${results.plan.adjacentFloorMs / 1000} s at the endpoint's concurrency right before and right after each endpoint run (the mean of the two p50s). It runs under the same bench-mode instrumentation as every API handler (**a change of method**, 2026-11-23: before it only the endpoints paid it): \`process.cpuUsage()\` around the invocation for \`X-Handler-CPU-Ms\`, a \`withDbStats\` scope (an AsyncLocalStorage, and \`ReturnConsumedCapacity\` on its call) and the \`X-DynamoDB-*\` headers (\`bench/harness/server.ts\` wraps it as \`shared/http/handler.ts\` wraps every handler), so the difference between an endpoint and the baseline is the handler's own work, not the bench's. Its p50 is what one request costs before any handler work: the HTTP hop from the load generator, the local gateway (routing, the payload v2 event, the response) and one GetItem. On AWS that hop is API Gateway's, which exists here only as the local stand-in (\`scripts/local/gateway.ts\`), so it is priced rather than counted against the handler.
- Read endpoints' floor: their twin (**a change of method**, 2026-11-23: runs before it priced a read's calls as described in the next bullets, which every endpoint's row still shows beside it, \`pricedFloorMs\` and \`pricedOverheadRatio\` in the results file, "priced" in the table). \`bench/harness/server.ts\` records the DynamoDB calls of a GET endpoint's warm-up requests (they carry a request header that asks for it, so measured requests pay nothing): each call's command and exact input as the handler gave it to the document client, in order, and which calls were in flight together (\`bench/floors/twin.ts\`: a call that starts while another of the request's calls is in flight joins its group). \`GET /bench/twin\`, an extra route of the bench's gateway beside the baseline's (never in \`shared/routes.ts\` nor deployed), replays the latest recording of a 2xx answer: the same calls with the same inputs, group after group, a group's calls at once, each once (a BatchGetItem that comes back with UnprocessedKeys is not followed up; a retry the handler made is a recorded call of its own), through the handlers' own \`db()\` client, under the same instrumentation as the baseline and every handler (\`withHandlerCpuHeader(withStatsHeaders(...))\`), and answers a small fixed body. It is loaded exactly as the baseline endpoint is, at the endpoint's concurrency for ${results.plan.adjacentFloorMs / 1000} s right before the run (last of the adjacent floors) and right after it (first), and the endpoint's floor is the mean of its two p50s, when every recording the warm-up reported was of reads only (GetItem, Query, BatchGetItem, Scan), the twin made as many round trips per request as the endpoint's run did (its \`X-DynamoDB-Round-Trips\`) and the endpoint has no intrinsic work. Otherwise, and for every write, the priced floor below stays the floor: replaying a conditional write is not the same call. Why: the priced floor measured each other call as a bare call of its kind and approximate shape from the bench process, with synthetic flat-string items, while the endpoint's calls run in the bench server, which at c=16 is CPU-bound (an endpoint's c=16 p50 is about 16 x its server CPU per request, the SDK's CPU for each of its own calls included, which the bench process's bare calls never queued behind), and return the endpoint's real items (nested maps, numbers), whose (un)marshalling is the SDK's work for that round trip. The twin is the endpoint's own round trips, with its own items, made through the same gateway, process, client and instrumentation, so endpoint minus twin is exactly the handler's own work (middy, validation, the auth logic, the domain, the answer's serialisation, the log line), which is what the ratio is meant to measure; at c=16 both pay the same CPU queue for the SDK work of the same calls. A twin that starts grouped calls together may wait less than the endpoint (a page fetched inside a group is replayed with it), never more. The twin's round trips and its handler and server CPU are in the adjacent-floor column.
- Priced floor: overhead ratio = endpoint p50 / its floor, where the floor = the adjacent baseline endpoint's p50 (the hop plus one GetItem) + the request's other DynamoDB calls, each at the adjacent p50 of its kind (TransactWriteItems / BatchWriteItem at the transaction floor; a Query that returned any item, or a BatchGetItem that returned two items or more or one item of at least ${LARGE_ITEM_BYTES} bytes, at the read floor of the endpoint's shape; a PutItem, UpdateItem or DeleteItem at the single-write floor; every other call, including a Query that returned no item and a BatchGetItem that returned 0 items or one smaller item, at the GetItem floor) + each Step Functions StartExecution at the StartExecution floor + intrinsic work. Equivalently: every call priced as before, plus the hop once per request, priced as baseline p50 - GetItem floor p50. Transactions are priced as transactions of their own size: the adjacent transaction floor is a bare TransactWriteItems (one guarded update + new entries) with as many items as the endpoint's transactions averaged in its warm-up (DynamoDB Local takes several times longer for a ten-item transaction than for a two-item one, which is the database's work, not the handler's). and as many bytes (**a change of method**, issue 36: runs before it wrote tiny entries whatever the endpoint's items weighed; now the warm-up's requests report their transactions' items' JSON length as the handler gave them to the document client, \`X-Bench-Transact-Bytes\`, and the floor's entries are padded to the same mean bytes per transaction, \`transactionEntryPaddings\` in bench/floors/floor.ts; a transaction no heavier than the bare one keeps exactly the floor it had; DynamoDB Local's consumed capacity does not count a transaction's items, reporting 4 units for a bare transaction of two items and of five alike, so it cannot be the measure): the location update's transaction carries its change-feed row, an audit entry of the changed fields before and after and the stored answer of the whole location, and DynamoDB Local's time grows with the bytes it parses and writes.
- Multi-item reads are priced at their shape, for the same reason (**a change of method**: runs before it priced every Query and BatchGetItem as one GetItem, whatever it returned, so their reads' ratios are not comparable with earlier runs'; endpoints without multi-item reads keep exactly the floor they had). \`bench/harness/server.ts\` records, for each Query and BatchGetItem a request makes that returns two items or more, the items returned and their size (the JSON length of the items as the handlers' document client returns them, unmarshalled, summed; and their top-level attributes), and sends them as \`X-Bench-Read-Shapes\`, for the warm-up's requests only (they carry a request header that asks for it: sizing the items serialises each of them, about 0.3 ms of server CPU per request for the locations list's eleven items, which measured requests must not pay since the baseline pays none; **a change of method**, 2026-11-23: runs before it sized the items of every request, measured ones included); the warm-up's mean per call (items per call, bytes and attributes per item) is rounded to a geometric scale of four steps per doubling (at most ~9% off, so few shapes are seeded per run), and right before the endpoint's run the bench measures a bare Query returning that many such items (a partition of its own, seeded once per shape and run; a BatchGetItem of them by key for BatchGetItem calls) through the handlers' own document client, at the same concurrency (for the plan's adjacent-floor time, and for at least 40 samples however long that takes: quick mode's 100 ms would otherwise leave a group of parallel reads at c=16 a handful). Each multi-item call (mean per request, as the warm-up's requests reported them) is priced at that p50, never below the GetItem floor: a Query does at least a GetItem's work in DynamoDB (the same partition lookup, plus the key condition), so one measured below it is noise in one of the two, and since the hop is priced as baseline - GetItem floor, a one-Query endpoint would otherwise be priced below the one-GetItem baseline endpoint, even below zero when the GetItem floor hits a burst (reconsidered 2026-11-23 and kept: a quick run under load without it priced the menu by id at -1.69 ms). DynamoDB Local takes about 2 ms more to return eleven items than one: the database's work and the bytes on the wire, not the handler's. Size is not DynamoDB's billed item size (read units count 4 KB steps, too coarse to tell a 300-byte item from a 3 KB one), and the floor items are flat strings, not the endpoint's nested maps and numbers.
- Single-item writes, StartExecution and large single reads are priced at their own kind too (**a change of method**, after the multi-item reads': runs before it priced each PutItem / UpdateItem / DeleteItem and each one-item read as one GetItem and a StartExecution at nothing, so the ratios of endpoints making such calls are not comparable with earlier runs'; every other endpoint keeps exactly the floor it had). Writes: when an endpoint's warm-up made single-item writes, right before its run the bench measures a bare conditional UpdateItem (\`ADD\` on a guarded counter item of each worker's own) through the handlers' own document client at the same concurrency, and each such write is priced at its p50, never below the GetItem floor: DynamoDB Local takes clearly longer for a conditional write than for a GetItem (the order-ahead completion's conditional transition spends about 7 ms in DynamoDB where a GetItem takes about 4), which is the database's work, not the handler's. StartExecution: \`bench/harness/server.ts\` counts each request's StartExecution calls on the SFN client (\`X-Bench-Start-Executions\`) and samples one request; right before the run, while the bench holds the workflow executions, the bench repeats that request (same state machine, name and input) through an SFN client built as the routes' (\`shared/workflows/executions.ts\`) at the same concurrency. A STANDARD state machine answers a repeat of a running execution exactly as the first, so the floor makes the route's request and gets its answer but starts no execution and touches no data. Each StartExecution is priced at that p50: on AWS it is a call to Step Functions, like a DynamoDB call an AWS service's work and the network's, not the handler's (locally: the HTTP hop to the workflow service in its own process and its answer). Large single reads: a Query or BatchGetItem returning one item of at least ${LARGE_ITEM_BYTES} JSON bytes (the order-ahead menu) is priced as a bare Query of one item of that size and attributes (the multi-item read floor above, with one item). A GetItem of a large item is still priced at the GetItem floor. One-item Queries (**a further change of method**, after the full run at ee20fd7's scenarios showed the menu by id over its target from its index Query alone): a Query that returned one item of any size is priced as a bare Query of one item of its size and attributes, because a Query (here one on an index, gsi1) is another call than a GetItem and DynamoDB Local takes longer for it (the menu by id: 2.75 ms in DynamoDB against a 2.2 ms GetItem floor); the handler's own work around it stays unpriced.
- What is not priced is the handler's own work, and that is what the ratio measures: middy, parsing and validation, authorization, the domain, serialisation of the answer, the log line, and (priced floors only; a twin makes the endpoint's own calls) the SDK's (un)marshalling beyond that of the bare call of the same kind and shape (a GetItem's, a transaction's of the same size, a Query's of the same item count, bytes and attributes: the nested structure of real items and their conversion to the answer's JSON stay the handler's).
- Parallel multi-item reads: \`X-Bench-Read-Shapes\` also carries how many such calls a request had in flight at once (the events list queries its audience's index shards together); the shaped floor then issues that many bare reads at once (\`Promise.all\`) and prices each group of calls at the group's p50. At c=16 that floor keeps sixteen groups in flight, more reads at once than the endpoint's requests do (they spend part of their time outside DynamoDB), so it may price such reads high there (the events list's c=16 ratio can come out below 1). Every other call is priced serially, as before, even when a handler overlaps it with another.
- Intrinsic work: the login verifies a password with scrypt (\`shared/auth/secrets.ts\`, N=16384, r=8, p=1; deliberately slow, docs/identity.md). Its floor adds the p50 of a bare \`hashPassword\` with the same parameters, run in the bench process at the same concurrency for ${(results.plan.adjacentHashMs ?? results.plan.adjacentFloorMs) / 1000} s right before the login's run (as a transaction is priced at its size). The hash itself is never weakened; only its cost is moved from the handler's side of the ratio to the floor's. No other endpoint has intrinsic work priced.
- In DynamoDB ms: the wall time a request spent with at least one DynamoDB call in flight, measured in the bench server around the handlers' client (parallel calls counted once); "outside DynamoDB" = the endpoint's p50 minus it: the HTTP hop, the gateway, the handler's own work and any wait for a CPU. The completed order's card charge goes to the sandbox gateway (\`shared/payments/sandbox.ts\`), which answers in-process without any network call, so it adds no outside call to price.
- Overhead-ratio targets: reads (GET routes) <= ${TARGETS.overheadRatio.read}, writes (every other method) <= ${TARGETS.overheadRatio.write}, at concurrency 1; at concurrency 16 "no worse" means the ratio stays within the same target (the c=16 ratio divides by the c=16 floor, so it measures how the handler's own cost grows under load, not the queueing DynamoDB Local adds to every call).
- Repeat on a miss (**a change of method**, issue 36, 2026-12-06; runs before it judged each ratio by its single measurement): an overhead ratio over its target (the one its verdict uses: read or write, to its twin or to the priced floor, as the row's) is measured twice more, right away, each time exactly as the first (the adjacent floors and twin before, the endpoint's run, the adjacent floors and twin after; a scenario that uses up prepared data gets fresh data for its repeats, and keeps its single measurement, marked "not repeatable", when that data cannot be prepared). The verdict uses the median of the three ratios: "median of 3 (first, second, third)" beside it, each trial's p50, floor and ratio in the results file (\`trials\`); the row's other figures (p50, CPU, calls, floors) are the first measurement's, and its round trips keep their own verdict from it (counts, not times). Why: the full runs at 5542407, 7629d98 and 46d51a4 met every warm target in at least two of the three and missed none in all three, yet none met all of them at once: each missed 4 or 5, different ones, on two-call routes at c=1 (a 3-5 ms floor, where one millisecond of DynamoDB Local's latency is a quarter of the ratio) and on twin ratios at c=16. One measurement cannot tell a burst of the shared machine from the handler's work; a real regression misses in at least two of three and still fails, a burst in one does not. The targets are unchanged.
- Handler CPU ms / request: \`process.cpuUsage()\` around the whole invocation (middy, validation, the domain, the SDK's serialisation, the log line), reported by the handler as \`X-Handler-CPU-Ms\` in bench mode only; the median at concurrency 1, where the request is the only one in flight (at 16 the process's CPU would be shared between overlapping requests). Server CPU ms / request: the bench server process's CPU (gateway + handler) between the first and the last response over the requests in between, at either concurrency. Beside each endpoint's, in parentheses, the same two figures of the baseline endpoint measured next to it (mean of its runs before and after): at c=16 the bench server is CPU-bound, so an endpoint's c=16 p50 is about 16 x its server CPU per request and its c=16 ratio is roughly its server CPU per request over the baseline's. On Lambda at ${FUNCTION_MEMORY_MB} MB a function gets about a third of a vCPU, so handler CPU there takes roughly three times as long.
- Round-trip target: the mean round trips per request equal the documented minimum; "missed" when any request made more.
- Workflow executions a measured request starts (\`order-ahead-complete\`: the completion's charge, provider forwarding and 3 s waits) are held by the local workflow service from the scenario's first warm-up to its last run (StartExecution answers as always, so the request does exactly its deployed work) and run afterwards: on AWS they run on Step Functions and other Lambdas, never on the request's CPU. The next measurement starts only once they have all finished. The switch is a message on the bench gateway's IPC channel (\`bench/harness/stack.ts\` holdWorkflows / releaseWorkflows); no HTTP route, \`npm start\` or the deployed stack reaches it.

## Summary

${summarySection(results)}

## Floor (bare DynamoDB Local round trips, same client, same run)

${floorSection(results)}

## Endpoints (local gateway, concurrency 1 and 16)

${endpointSection(results)}

## Order ahead: start -> 200 on poll

Start (\`POST /v15/order_ahead/orders\`), then one poll of \`order_url\` as soon as the order is no longer validating: the bench watches the order's state in the table (a consistent read every 10 ms at c=1, 40 ms at c=16) and polls the API once, the moment a perfectly timed client would (a real client polls every 0.5-1 s and gets 202 until then, never 429). Latency is start sent -> 200 received, so it includes the start request, the Step Functions validation (run locally by \`scripts/local/workflows.ts\`) and the poll.

${orderAheadSection(results)}

## Cost that does not grow with history

${historySection(results)}

## Cold start (minified bundles, same esbuild settings as the CDK stack)

Each function bundled with \`API_FUNCTION_BUNDLING\` from \`infra/constructs/api-function.ts\` (minify, ESM, node24, \`@aws-sdk/*\` external, banner: the AWS SDK is the runtime's, here node_modules' copy loaded unbundled as the runtime loads its own; \`npm run bench -- --cold-start --sdk-comparison\` measures it bundled instead, figures in the analysis below); each run is a fresh \`node\` process (the functions' NODE_OPTIONS: none) that imports the bundle and serves one request: the route with path ids 1 (the seeded world's first app, merchant, location, campaign and menu), an empty body (except the writes in \`PROBE_BODIES\` of \`bench/cold-start/cold-start.ts\`, which send a valid one as their bench scenario does, **a change of method** of 2026-11-23: gift-card-value-orders-create, proposed-orders-create, orders-create and checks-create, whose first requests now run to their commit; since 2026-11-23 the gift card's email is sent after the answer, from the table's stream, so its probe no longer sends it), and a token issued for that probe alone (all of a round's tokens minted before its first probe), of the kind its credential takes in \`shared/routes.ts\` (a user's; a merchant's for \`merchant\` and \`merchant-or-app\`; the app's for \`app\` and \`app-optional\`; for \`any\`, a user's, except a merchant's for checks-orders-create, whose main path is the POS finalising). Reads run their whole path; the other writes mostly answer 422 at validation, after the token read. Before 2026-11-23 every probe carried the same user token, which DELETE /v15/access_tokens revoked in the first round, so half of the functions answered 401 without running their own path. Median of ${results.plan.coldStartRuns} runs, interleaved across functions. The baseline is \`bench/harness/baseline-handler.ts\`: one GetItem through the same \`db()\` client, same bundling. Sizes in KiB (1024 bytes).

**Targets** (issue 35, which answers issue 19's question: a function is judged against its own cold twin, not against the one-GetItem baseline, since its own DynamoDB calls are the database's work, not ours), each function marked met or missed in the Targets column: its cold start within **${TARGETS.coldStartTwinRatio}x its cold twin's**; its import within **${TARGETS.importMsOverBaseline} ms of the baseline's import** (the baseline bundled the same way); its bundle **<= ${TARGETS.bundleKiB} KiB**, not counting the AWS SDK if it is bundled. The ratio to the one-GetItem baseline is no longer reported.

Each function's **cold twin** (\`bench/cold-start/cold-twin.ts\`): the probe process records the DynamoDB calls its first request sends through the document client (\`bench/cold-start/cold-start-probe.mjs\`: each call's command class and exact input, in order, and which calls were in flight together, as \`bench/floors/twin.ts\` groups a warm read's; every probe records, the baseline's and the twins' too, so all pay the same fraction of a millisecond). Right after the function's probe, in the same round, a fresh process imports the twin, \`bench/cold-start/cold-twin-handler.ts\` bundled exactly as the baseline (the same esbuild options, the same \`db()\` client of \`shared/db/client.ts\`), and its first request makes those calls again, group after group, a group's calls at once, each a new command of the recorded class with the recorded input; a call that fails is waited for and counts as the round trip it is. A function that makes no DynamoDB call gets a twin that makes none (its import and an empty first request). Writes (PutItem, UpdateItem, DeleteItem, TransactWriteItems with its condition checks, BatchWriteItem) are replayed with their input exact except the table: a scratch table of the same keys and indexes but no stream (\`<table>-cold-twin\`; DynamoDB Local makes every write to a second streamed table slow once the first table is large, which made the write twins of full runs wait seconds until 2026-11-24, and without the stream the twin's write does a little less than the function's, so it stays a floor) that, at the start of each twin round (before its first probe, like the tokens), receives a copy of the items the function's previous recorded writes touched, as they are then. A write replayed against the real table would meet the state the function had just written (a new id's put, a version check, then failing) or, guarded only by a balance or unguarded, write a second time (a second debit, a counter bumped twice) and change what later probes see; on the scratch copy it meets the state the function's write met and does the same work (a ten-item transaction commits its ten items), and no twin changes the world. Where an earlier function of the same round changed such an item after the copy, the twin's condition can fail where the function's held: it then pays a cancelled call, the same round trip and SDK work and less of DynamoDB Local's, so the twin never costs more than the function's own calls. Reads go to the real table as recorded. Not replayed: the function's work outside DynamoDB (the sandbox card charge, SES email, Step Functions), which stays its own cost. The twins are probed in every second round (${Math.floor(results.plan.coldStartRuns / 2) || 1} of ${results.plan.coldStartRuns}), which adds about half of the phase's time instead of doubling it; the ratio to the twin is the median over those rounds of the function's total over its twin's in the same round (noise falls on both alike), beside it the same for their process CPU; the table gives both processes' DynamoDB calls (the function's median over its runs, the twin's over its rounds; a note when they differ in a round, when a twin's call failed where the function's succeeded, and when a twin's call waited where the function's did not, retried by the SDK or 200 ms (\`TWIN_WAIT_MS\`) and twice as long: the probe records each call's error, time and SDK attempts too).

${coldStartSection(results)}
${notes ? `\n## Analysis\n\n${notes}\n` : ''}`;
}

/** The memory the stack gives a route's function: its measured pick (shared/routes.ts `memory`), else the default. */
function memoryOfRoute(routeLabel: string): number {
  const route = routes.find((candidate) => `${candidate.method} ${candidate.path}` === routeLabel);
  return route?.memory ?? DEFAULT_MEMORY_MB;
}

/**
 * The billed duration at `memoryMb`: the local p50 (one full core here) with the handler's CPU part
 * stretched as Lambda shares a vCPU (bench/memory/memory.ts models the pick the same way).
 */
function billedMsAt(p50Ms: number, handlerCpuMs: number | null | undefined, memoryMb: number): number {
  return Math.ceil(p50Ms + (handlerCpuMs ?? 0) * (Math.max(1, ONE_VCPU_MB / memoryMb) - 1));
}

function costMarkdown(results: BenchResults): string {
  const rows: string[][] = [];
  const perMillion = (perRequest: number) => perRequest * 1_000_000;
  for (const row of results.endpoints) {
    const run = runAt(row, 1);
    if (!row.available || !run) {
      rows.push([row.title, dash, dash, dash, dash, dash, dash, dash, dash, 'not measured']);
      continue;
    }
    const load = run.load;
    const memoryMb = memoryOfRoute(row.route);
    const billedMs = billedMsAt(load.summary.p50, load.handlerCpuMs, memoryMb);
    const lambda = PRICES.lambdaPerMillionRequests / 1e6 + (memoryMb / 1024) * (billedMs / 1000) * PRICES.lambdaArmPerGbSecond;
    const api = PRICES.httpApiPerMillionRequests / 1e6;
    const dynamo = ((load.readUnits ?? 0) * PRICES.dynamoPerMillionReadUnits + (load.writeUnits ?? 0) * PRICES.dynamoPerMillionWriteUnits) / 1e6;
    rows.push([
      row.title,
      String(memoryMb),
      String(billedMs),
      `${fmt(load.readUnits)} / ${fmt(load.writeUnits)}`,
      `$${fmt(perMillion(lambda))}`,
      `$${fmt(perMillion(api))}`,
      `$${fmt(perMillion(dynamo))}`,
      dash,
      `**$${fmt(perMillion(lambda + api + dynamo))}**`,
      '',
    ]);
  }
  const orderAhead = results.orderAhead.runs.find((run) => run.concurrency === 1);
  if (results.orderAhead.available && orderAhead) {
    const startMemoryMb = memoryOfRoute('POST /v15/order_ahead/orders');
    const pollMemoryMb = memoryOfRoute('GET /v15/order_ahead/orders/{uuid}');
    const lambdaCall = (ms: number, memoryMb: number) =>
      PRICES.lambdaPerMillionRequests / 1e6 + (memoryMb / 1024) * (Math.ceil(ms) / 1000) * PRICES.lambdaArmPerGbSecond;
    // The validation Lambda the workflow invokes runs for at most the time between start and valid.
    const validationMs = Math.max(1, orderAhead.summary.p50 - orderAhead.startP50Ms - orderAhead.pollP50Ms);
    const lambda =
      lambdaCall(orderAhead.startP50Ms, startMemoryMb) + lambdaCall(orderAhead.pollP50Ms, pollMemoryMb) + lambdaCall(validationMs, FUNCTION_MEMORY_MB);
    const api = (2 * PRICES.httpApiPerMillionRequests) / 1e6;
    const expressSeconds = Math.max(0.1, Math.ceil(orderAhead.summary.p50 / 100) / 10);
    const express = PRICES.expressPerMillionRequests / 1e6 + PRICES.expressMemoryGb * expressSeconds * PRICES.expressPerGbSecond;
    const start = orderAhead.startUnits ?? { read: 0, write: 0 };
    const poll = orderAhead.pollUnits ?? { read: 0, write: 0 };
    const dynamo = ((start.read + poll.read) * PRICES.dynamoPerMillionReadUnits + (start.write + poll.write) * PRICES.dynamoPerMillionWriteUnits) / 1e6;
    rows.push([
      'Order ahead: start + the poll that answers 200',
      `${startMemoryMb} + ${pollMemoryMb} + ${FUNCTION_MEMORY_MB}`,
      `${Math.ceil(orderAhead.startP50Ms)} + ${Math.ceil(orderAhead.pollP50Ms)} + validation <= ${Math.ceil(validationMs)}`,
      `${fmt(start.read + poll.read)} / ${fmt(start.write + poll.write)} (validation's own writes not seen)`,
      `$${fmt(perMillion(lambda))}`,
      `$${fmt(perMillion(api))}`,
      `$${fmt(perMillion(dynamo))}`,
      `$${fmt(perMillion(express))}`,
      `**$${fmt(perMillion(lambda + api + dynamo + express))}**`,
      `Express: ${expressSeconds} s (start -> valid p50, in 100 ms steps), 64 MB. Clients polling once a second before it is valid add one poll each (a Lambda call, an HTTP API request and the poll's units).`,
    ]);
  } else {
    rows.push(['Order ahead: start + poll', dash, dash, dash, dash, dash, dash, dash, dash, 'not measured']);
  }
  return `# Cost of one million requests

Generated by \`${results.command}\` on ${results.date} (${results.mode} run) from the measured figures in [\`bench/results/${results.mode}.json\`](../bench/results/${results.mode}.json); see [benchmarks.md](benchmarks.md). Do not edit by hand: re-run the bench.

Prices: AWS us-east-1 list prices, ${PRICES_AS_OF}. **Check them against the AWS pricing pages before relying on the totals**; free tiers are ignored.

| Service | Price used |
| --- | --- |
| Lambda (arm64, each function at its route's memory: the "Lambda MB" column) | $${PRICES.lambdaPerMillionRequests} per million requests + $${PRICES.lambdaArmPerGbSecond} per GB-second, billed per 1 ms |
| API Gateway HTTP API | $${PRICES.httpApiPerMillionRequests} per million requests (first 300 million a month; each 512 KB counts as one request) |
| DynamoDB on-demand | $${PRICES.dynamoPerMillionWriteUnits} per million write request units, $${PRICES.dynamoPerMillionReadUnits} per million read request units (storage not included) |
| Step Functions Express | $${PRICES.expressPerMillionRequests} per million executions + $${PRICES.expressPerGbSecond} per GB-second (64 MB and 100 ms steps) |

How each figure is computed:
- Lambda memory: each route's function at the memory the stack gives it (its measured pick, \`memory\` in shared/routes.ts, from \`npm run bench:memory\`: the last section; routes without a pick and the order-ahead validation at ${FUNCTION_MEMORY_MB} MB).
- Lambda duration: the endpoint's measured local p50 at concurrency 1 (one full core here), with its handler CPU stretched as at that memory Lambda gives the function ${'M'} / ${ONE_VCPU_MB} of a vCPU: p50 + CPU x (max(1, ${ONE_VCPU_MB} / M) - 1), rounded up to a whole millisecond (the model of the memory section). On AWS a DynamoDB round trip inside the region is usually a few milliseconds rather than DynamoDB Local's one or two, so treat it as an estimate (it is a small part of the total either way).
- DynamoDB: the read and write capacity units the requests consumed, as DynamoDB Local reported them (\`ReturnConsumedCapacity: TOTAL\` on every call). DynamoDB Local's figures follow the item-size rules (reads 4 KB units, half for eventually consistent; writes 1 KB units; transactions double) but may leave out index writes, which AWS bills too: each write to an item that is in a GSI also costs write units on that index.
- Not included: CloudWatch Logs ingestion of the one log line per request (about $0.50 per GB ingested), data transfer out, storage, the payment gateway; CloudFront, WAF, access logs and tracing are priced in the last section.

| Endpoint | Lambda MB | Lambda billed ms | Read / write units per request | Lambda | HTTP API | DynamoDB | Express | Total per million | Note |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.map((row) => `| ${row.join(' | ')} |`).join('\n')}

${observabilityCostSection()}`;
}

/** What one access log line weighs: the stage's JSON format filled with typical values. */
function accessLogLineBytes(): number {
  const typical: Record<string, string> = {
    '$context.requestId': 'ZbXyR2J5oAMEbXw=',
    '$context.requestTime': '22/Nov/2026:02:00:33 +0000',
    '$context.httpMethod': 'POST',
    '$context.path': '/v15/merchants/123/gift_card_value_additions',
    '$context.routeKey': 'POST /v15/merchants/{merchant_id}/gift_card_value_additions',
    '$context.identity.userAgent': 'LevelUpSdk/1.0 (iOS 18.1)',
    '$context.identity.sourceIp': '203.0.113.17',
  };
  const line = JSON.stringify(Object.fromEntries(Object.entries(ACCESS_LOG_FIELDS).map(([name, variable]) => [name, typical[variable] ?? '200'])));
  return line.length + 1;
}

function observabilityCostSection(): string {
  const prices = OBSERVABILITY_PRICES;
  const functions = routes.length + 3; // the route functions, the $default fallback and the two workflows' tasks
  // Alarm metrics as infra/constructs/monitoring.ts builds them: a math alarm is billed per metric in it.
  const alarmMetrics =
    functions /* errors, one per function */ +
    2 /* 5xx rate */ +
    1 /* p99 */ +
    1 /* Lambda throttles */ +
    9 /* table throttles */ +
    9 /* table system errors */ +
    4 /* two workflows: failed, timed out */ +
    2; /* validation failed, charge_void_failed */
  const customMetrics = Object.values(BUSINESS_METRICS).reduce(
    (sum, name) => sum + ((METRIC_DIMENSIONS as Record<string, { values: readonly string[] }>)[name]?.values.length ?? 1),
    0,
  );
  const fixed = [
    [
      'CloudWatch alarms',
      `${alarmMetrics} alarm metrics (${functions} function-error alarms and 9 others; math alarms count each metric)`,
      alarmMetrics * prices.alarmPerMetricMonth,
    ],
    ['CloudWatch dashboard', '1 dashboard (the first 3 of an account are free)', prices.dashboardMonth],
    [
      'Custom metrics (EMF)',
      `${customMetrics} metrics (names x dimension values of shared/metrics.ts), billed once they receive data`,
      customMetrics * prices.customMetricMonth,
    ],
    ['KMS key of the alarm topic', '1 customer managed key', prices.kmsKeyMonth],
    ['AWS WAF', '1 web ACL + 3 rate-based rules', prices.wafWebAclMonth + 3 * prices.wafRuleMonth],
  ] as const;
  const fixedTotal = fixed.reduce((sum, [, , cost]) => sum + cost, 0);
  const accessLogBytes = accessLogLineBytes();
  const perMillion = [
    [
      'CloudFront',
      `$${prices.cloudFrontPerMillionHttpsRequests} per million HTTPS requests + $${prices.cloudFrontPerGbOut}/GB out (~1 KB per answer)`,
      prices.cloudFrontPerMillionHttpsRequests + prices.cloudFrontPerGbOut,
    ],
    ['AWS WAF requests', `$${prices.wafPerMillionRequests} per million requests inspected`, prices.wafPerMillionRequests],
    [
      'Stage access log',
      `one ~${accessLogBytes}-byte JSON line per request, $${prices.logsIngestedPerGb}/GB ingested`,
      (accessLogBytes * 1e6 * prices.logsIngestedPerGb) / 1e9,
    ],
    [
      'X-Ray traces',
      `$${prices.xrayPerMillionTracesRecorded} per million traces; the default sampling keeps the first request each second and 5% of the rest: 100% at 1 req/s, ~15% at 10 req/s, ~6% at 100 req/s`,
      0.06 * prices.xrayPerMillionTracesRecorded,
    ],
    [
      'EMF metric lines',
      'one ~450-byte line per money-moving request only (loads, orders, refunds, validations)',
      (450 * 1e6 * prices.logsIngestedPerGb) / 1e9,
    ],
  ] as const;
  const perMillionTotal = perMillion.reduce((sum, [, , cost]) => sum + cost, 0);
  return `## Observability and per-client limits

What issue 18 (tracing, metrics, alarms, dashboard, access logs) and the per-client limits (CloudFront + AWS WAF, docs/security.md) add, at list prices (same source and caveat as above). Active tracing on the functions and the state machine costs nothing itself beyond the traces recorded; the validation state machine logs ERROR only (a few lines a day); the completion state machine, which moves money, logs every event without execution data (about 15 small lines per submitted order).

Each month, whatever the traffic:

${markdownTable(
  ['Item', 'What', 'Per month'],
  fixed.map(([item, what, cost]) => [item, what, `$${fmt(cost)}`]),
)}

**About $${fmt(fixedTotal)} a month** (the function-error alarms are ${Math.round(((functions * prices.alarmPerMetricMonth) / fixedTotal) * 100)}% of it: one alarm per function names the failing one at once, docs/operations.md).

Per million requests, on top of the endpoint figures above:

${markdownTable(
  ['Item', 'How', 'Per million requests'],
  perMillion.map(([item, how, cost]) => [item, how, `$${fmt(cost)}`]),
)}

**About $${fmt(perMillionTotal)} per million requests** at 100 req/s sustained (X-Ray at ~6% sampled; at low rates nearly every request is traced: up to $${fmt(prices.xrayPerMillionTracesRecorded)} per million, after X-Ray's free 100,000 traces a month; EMF lines counted as if every request moved money, an upper bound). CloudFront and WAF are most of it: for the cheap reads above (about $1.40 per million) they more than double the cost per request; that is the price of per-client limits, since API Gateway HTTP APIs have no per-client throttling of their own (docs/security.md). Function log lines (one per request, ~300 bytes) were already there and are not counted again.
`;
}

export function writeReports(results: BenchResults, resultsPath: string): void {
  writeFileSync(join(ROOT, 'docs', 'benchmarks.md'), benchmarksMarkdown(results, resultsPath));
  // The memory section comes from npm run bench:memory (bench/memory/memory.ts): carried over, never dropped.
  const memorySection = currentMemorySection();
  writeFileSync(join(ROOT, 'docs', 'cost.md'), memorySection ? withMemorySection(costMarkdown(results), memorySection) : costMarkdown(results));
}
