/**
 * `npx tsx scripts/time-zones.ts`: rewrites shared/time.ts's list of canonical time zones from this Node's
 * `Intl.supportedValuesOf('timeZone')`. Run it on the Node the project pins (the functions' runtime, Node 24)
 * when test/locations/time-zones.test.ts says the list and Intl differ (a Node upgrade brought new tz data).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TIME_MODULE = fileURLToPath(new URL('../shared/time.ts', import.meta.url));
const START = '// canonical-time-zones:start';
const END = '// canonical-time-zones:end';
const LINE_LENGTH = 116;

/** The zones one area (`America`) per paragraph, wrapped, as the template literal's lines. */
function listing(zones: readonly string[]): string {
  const lines: string[] = [];
  let area = '';
  for (const zone of zones) {
    const zoneArea = zone.split('/')[0]!;
    const last = lines.at(-1);
    if (zoneArea === area && last !== undefined && last.length + 1 + zone.length <= LINE_LENGTH) lines[lines.length - 1] = `${last} ${zone}`;
    else lines.push(zone);
    area = zoneArea;
  }
  return lines.join('\n');
}

const zones = Intl.supportedValuesOf('timeZone');
const source = readFileSync(TIME_MODULE, 'utf8');
const start = source.indexOf(START);
const end = source.indexOf(END);
if (start < 0 || end < start) throw new Error(`${TIME_MODULE} has no ${START} ... ${END} block`);
const block = [
  START,
  `// Intl.supportedValuesOf('timeZone') of Node ${process.versions.node} (ICU ${process.versions.icu}, tz ${process.versions.tz}), by scripts/time-zones.ts.`,
  `const CANONICAL_TIME_ZONE_NAMES = \`\n${listing(zones)}\`;`,
  '',
].join('\n');
writeFileSync(TIME_MODULE, `${source.slice(0, start)}${block}${source.slice(end)}`);
process.stdout.write(`shared/time.ts: ${zones.length} zones (Node ${process.versions.node}, tz ${process.versions.tz})\n`);
