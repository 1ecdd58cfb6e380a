import { useCallback } from 'react';
import { Link, Route, Routes, useParams } from 'react-router';
import { allItems, type LevelUpClient } from '../../../clients/typescript/index.ts';
import { appViewOf, customerWords, draftOf, kindLabel, type Campaign } from '../campaigns-fields.ts';
import { WhenLoaded } from '../ErrorMessage.tsx';
import { ColumnHeadings, ScrollingTable } from '../tables.tsx';
import { formatTime } from '../format.ts';
import { useLoaded } from '../loaded.ts';
import type { PageProps } from '../session.ts';
import { CampaignDetail, useCampaign } from './CampaignsDetail.tsx';
import { CampaignForm } from './CampaignsForm.tsx';

/**
 * Loyalty campaigns (docs/console.md, "Campaigns"): the list, a campaign, and for owners its creation, edit and close.
 * Owners and managers read them; staff may not (the API answers 403), so they are told before anything is asked.
 */
export function Campaigns(props: PageProps) {
  if (props.me.role === 'staff') {
    return (
      <>
        <h1>Campaigns</h1>
        <p>Campaigns are for owners and managers. Ask one of them about the merchant's loyalty campaigns.</p>
      </>
    );
  }
  return (
    <Routes>
      <Route index element={<CampaignList {...props} />} />
      <Route path="new" element={<NewCampaign {...props} />} />
      <Route path=":id" element={<CampaignAt {...props} />} />
      <Route path=":id/edit" element={<EditCampaign {...props} />} />
    </Routes>
  );
}

/** The goal and reward of a campaign in a few words, as its preview puts them. */
const goalWords = (campaign: Campaign) =>
  campaign.kind === 'legacy' ? 'Cards of an older program' : customerWords(appViewOf(draftOf(campaign), Date.now())).goal;

function CampaignList({ client, merchantId, me }: PageProps) {
  // Every page: a merchant has at most 200 campaigns (docs/merchant-api.md), 50 a page.
  const load = useCallback(
    () => allItems(client, '/v15/merchants/{merchant_id}/all_campaigns', { params: { path: { merchant_id: String(merchantId) } } }),
    [client, merchantId],
  );
  const { data, error } = useLoaded(load);
  const campaigns = data?.map(({ campaign }) => campaign);
  return (
    <>
      <h1>Campaigns</h1>
      {me.role === 'owner' ? (
        <p>
          <Link className="button-link" to="/campaigns/new">
            New campaign
          </Link>
        </p>
      ) : (
        <p>You can read the campaigns; only owners create, edit and close them.</p>
      )}
      <WhenLoaded data={campaigns} error={error} progress="Loading the campaigns…">
        {(campaigns) =>
          campaigns.length === 0 ? (
            <p>No campaign yet.{me.role === 'owner' ? ' Create one to reward your regular customers.' : ''}</p>
          ) : (
            <ScrollingTable captionId="campaigns-caption" caption={<>Your campaigns ({campaigns.length}), open, scheduled and closed</>} className="campaigns">
              <ColumnHeadings columns={['Name', 'Kind', 'State', 'Goal and reward', 'Ends']} />
              <tbody>
                {campaigns.map((campaign) => (
                  <tr key={campaign.id}>
                    <th scope="row">
                      <Link to={`/campaigns/${campaign.id}`}>{campaign.title}</Link>
                    </th>
                    <td>{kindLabel(campaign.kind)}</td>
                    <td>
                      <span className={`campaign-state ${campaign.state}`}>{campaign.state}</span>
                    </td>
                    <td className="wrap">{goalWords(campaign)}</td>
                    <td>{campaign.closes_at ? formatTime(campaign.closes_at) : 'No end'}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollingTable>
          )
        }
      </WhenLoaded>
    </>
  );
}

function NewCampaign({ client, merchantId, me }: PageProps) {
  if (me.role !== 'owner') return <OwnersOnly title="New campaign" />;
  return (
    <>
      <p>
        <Link to="/campaigns">Back to the campaigns</Link>
      </p>
      <h1>New campaign</h1>
      <CampaignForm client={client} merchantId={merchantId} mode={{ kind: 'create' }} />
    </>
  );
}

function CampaignAt({ client, merchantId, me }: PageProps) {
  const { id = '' } = useParams();
  // key: another campaign's address starts afresh (its own read, no confirmation left open).
  return <CampaignDetail key={id} client={client} merchantId={merchantId} me={me} campaignId={id} />;
}

function EditCampaign({ client, merchantId, me }: PageProps) {
  const { id = '' } = useParams();
  if (me.role !== 'owner') return <OwnersOnly title="Edit a campaign" />;
  return <EditLoaded key={id} client={client} merchantId={merchantId} campaignId={id} />;
}

function EditLoaded({ client, merchantId, campaignId }: { client: LevelUpClient; merchantId: number; campaignId: string }) {
  const { data: campaign, error } = useCampaign(client, merchantId, campaignId);
  return (
    <>
      <p>
        <Link to={`/campaigns/${campaignId}`}>Back to the campaign</Link>
      </p>
      <h1>{campaign ? `Edit “${campaign.title}”` : 'Edit a campaign'}</h1>
      <WhenLoaded data={campaign} error={error} progress="Loading the campaign…">
        {(campaign) =>
          campaign.state === 'closed' || campaign.kind === 'legacy' ? (
            <p>
              {campaign.state === 'closed'
                ? 'This campaign is closed: a closed campaign never reopens or changes.'
                : "An older program's campaign is the operators' to change."}
            </p>
          ) : (
            <CampaignForm client={client} merchantId={merchantId} mode={{ kind: 'edit', campaign }} />
          )
        }
      </WhenLoaded>
    </>
  );
}

function OwnersOnly({ title }: { title: string }) {
  return (
    <>
      <h1>{title}</h1>
      <p>Only owners create, edit and close campaigns. Ask an owner of the merchant.</p>
      <p>
        <Link to="/campaigns">Back to the campaigns</Link>
      </p>
    </>
  );
}
