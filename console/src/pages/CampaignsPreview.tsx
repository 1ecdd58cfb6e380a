import { useState } from 'react';
import { appViewOf, customerWords, EXAMPLE_SHARE, type CampaignDraft } from '../campaigns-fields.ts';

/**
 * What a customer sees in the app, drawn from the fields the app receives (`basic_v1` and the kind's representation,
 * `GET /v15/campaigns/{id}/{representation_type}`), with an example customer part of the way: re-drawn on every edit.
 */
export function CampaignPreview({ draft, headingLevel = 2 }: { draft: CampaignDraft; headingLevel?: 2 | 3 }) {
  // The example's period starts when the preview opens (a gift card campaign's period starts with the first order).
  const [now] = useState(() => Date.now());
  const view = appViewOf(draft, now);
  const words = customerWords(view);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const CardHeading = headingLevel === 2 ? 'h3' : 'h4';
  return (
    <section className="campaign-preview" aria-labelledby="campaign-preview-heading">
      <Heading id="campaign-preview-heading">What a customer sees</Heading>
      <p className="hint">
        As the app shows it, for an example customer {Math.round(EXAMPLE_SHARE * 100)}% of the way{view.loyalty ? '' : ' (a code campaign has no progress)'}.
      </p>
      {/* Not a live region: it changes with every key typed, which a screen reader would read out each time. */}
      <div className="phone-card">
        <CardHeading className="phone-card-title">{view.basic_v1.title.trim() === '' ? 'Your campaign name' : view.basic_v1.title}</CardHeading>
        {view.basic_v1.description.trim() !== '' ? <p className="phone-card-message">{view.basic_v1.description}</p> : null}
        <p className="phone-card-goal">{words.goal}</p>
        {words.goals.length > 0 ? (
          <ol className="phone-card-goals">
            {words.goals.map((goal, index) => (
              <li key={index}>
                <strong>{goal.title.trim() === '' ? `Goal ${index + 1}` : goal.title}</strong> {goal.words}
                {goal.description.trim() !== '' ? `: ${goal.description}` : ''}
              </li>
            ))}
          </ol>
        ) : null}
        {words.progress ? (
          <div className="phone-card-progress">
            <progress
              max={Math.max(words.progress.max, 1)}
              value={Math.min(words.progress.value, Math.max(words.progress.max, 1))}
              aria-labelledby="campaign-preview-progress"
            />
            <p id="campaign-preview-progress">{words.progress.words}</p>
          </div>
        ) : null}
        {view.requires_opt_in ? <p className="phone-card-note">Join with the code {view.cohort_code ?? '(none yet)'} to start earning.</p> : null}
        {view.locked ? <p className="phone-card-note">Shown only to the customers you unlock it for.</p> : null}
      </div>
    </section>
  );
}
