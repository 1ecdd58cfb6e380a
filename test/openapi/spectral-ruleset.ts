/**
 * Spectral's `spectral:oas` ruleset (its recommended rules), as test/openapi/spectral.test.ts runs it on the
 * document. Each rule turned off here is a warning acknowledged, with its reason; anything else Spectral
 * reports fails the suite.
 */
import type { RulesetDefinition } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';

export const SPECTRAL_RULESET = {
  extends: [[oas as RulesetDefinition, 'recommended']],
  rules: {
    // A private API with no public support channel to name; the description says where errors are explained.
    'info-contact': 'off',
  },
  overrides: [
    {
      // Facebook login was removed (docs/app-surface.md): both operations only answer 410 with what to do
      // instead. The generator refuses any other operation without a success (shared/openapi/document.ts).
      files: ['**#/paths/~1v14~1facebook_connection'],
      rules: { 'operation-success-response': 'off' },
    },
  ],
} satisfies RulesetDefinition;
