/**
 * Work to do once per invocation, after the response is built (flushing metrics). Modules register
 * here instead of the request pipeline importing them, so a function bundles only what its own code
 * path uses: shared/metrics.ts (and Powertools) lands only in the functions that record a metric.
 */
const hooks: (() => void)[] = [];

export function onInvocationEnd(hook: () => void): void {
  hooks.push(hook);
}

export function endInvocation(): void {
  for (const hook of hooks) hook();
}
