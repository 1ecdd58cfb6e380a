import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxPush } from '#shared/push/sandbox.ts';

/**
 * The push sandbox's record for this test file (shared/push/sandbox.ts): a fresh file, set as PUSH_SANDBOX_FILE
 * for the stream function this process runs. Call at the top of the file, before the event pipeline starts.
 */
export function usePushSandbox() {
  const file = join(mkdtempSync(join(tmpdir(), 'push-sandbox-')), 'pushes.jsonl');
  process.env.PUSH_SANDBOX_FILE = file;
  const all = (): SandboxPush[] =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as SandboxPush)
      : [];
  return {
    all,
    /** The pushes to one user, waiting (with a deadline) until at least `atLeast` of `kind` arrived. */
    async to(userId: number, kind: string, options: { atLeast?: number; timeoutMs?: number } = {}): Promise<SandboxPush[]> {
      const deadline = Date.now() + (options.timeoutMs ?? 15_000);
      for (;;) {
        const found = all().filter((push) => push.user_id === userId && push.kind === kind);
        if (found.length >= (options.atLeast ?? 1) || Date.now() > deadline) return found;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
