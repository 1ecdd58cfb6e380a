import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Route, Routes, useLocation, useNavigate, useParams } from 'react-router';
import { allItems, withIdempotencyKey, type LevelUpClient } from '../../../clients/typescript/index.ts';
import { ConfirmStep, ResultLine } from '../confirm.tsx';
import { ErrorMessage, Progress, WhenLoaded } from '../ErrorMessage.tsx';
import { ColumnHeadings, ScrollingTable } from '../tables.tsx';
import { SelectField } from '../fields.tsx';
import { formatTime } from '../format.ts';
import { useLoaded } from '../loaded.ts';
import { useWrite } from '../write.ts';
import { answered, asConsoleError, type ConsoleError, type PageProps, type StaffMember } from '../session.ts';

type Role = StaffMember['role'];

const ROLE_NAMES: Record<Role, string> = { owner: 'Owner', manager: 'Manager', staff: 'Staff' };
const ROLES: readonly { value: Role; label: string }[] = [
  { value: 'staff', label: 'Staff' },
  { value: 'manager', label: 'Manager' },
  { value: 'owner', label: 'Owner' },
];
const isRole = (value: unknown): value is Role => value === 'owner' || value === 'manager' || value === 'staff';
const stateName = (member: StaffMember) => (member.status === 'invited' ? 'Invited' : 'Active');

/** A text field of a submitted form ('' when absent). */
function textOf(fields: FormData, name: string): string {
  const value = fields.get(name);
  return typeof value === 'string' ? value : '';
}

/** Changes are sent again with the same Idempotency-Key on a lost race or a busy API (429, 5xx), so each happens once. */
const WRITE_ATTEMPTS = 3;

/** A write answered 204 (no body): a non-2xx becomes the error in words; `answered` is for answers with a body. */
function succeeded(answer: { error?: unknown; response: Response }): void {
  if (!answer.response.ok) answered({ ...answer, data: undefined });
}

/**
 * Staff and roles (docs/console.md, "Staff"): the merchant's people for owners and managers, invites, role changes
 * and removals for owners, and "My manager code" for owners and managers. The API checks every role again.
 */
export function Staff({ client, merchantId, me }: PageProps) {
  if (me.role === 'staff') {
    return (
      <>
        <h1>Staff</h1>
        <p>The staff list is for owners and managers. Ask one of them to invite someone or to change a role.</p>
      </>
    );
  }
  return <StaffAreas client={client} merchantId={merchantId} me={me} />;
}

/** The list and each person's page share one read of the staff (at most 200, so all pages are read at once). */
function StaffAreas({ client, merchantId, me }: PageProps) {
  const load = useCallback(
    () =>
      allItems(client, '/v15/merchants/{merchant_id}/staff', { params: { path: { merchant_id: String(merchantId) } } }).then((items) =>
        items.map(({ staff }) => staff),
      ),
    [client, merchantId],
  );
  const staff = useLoaded(load);
  return (
    <Routes>
      <Route index element={<StaffList client={client} merchantId={merchantId} me={me} staff={staff.data} error={staff.error} reload={staff.reload} />} />
      <Route
        path=":staffId"
        element={<StaffMemberPage client={client} merchantId={merchantId} me={me} staff={staff.data} error={staff.error} reload={staff.reload} />}
      />
    </Routes>
  );
}

interface StaffProps {
  client: LevelUpClient;
  merchantId: number;
  me: StaffMember;
  staff: StaffMember[] | undefined;
  error: ConsoleError | undefined;
  reload: () => void;
}

/** The people of the merchant, what the signed-in person may do, the invite (owners) and their own manager code. */
function StaffList({ client, merchantId, me, staff, error, reload }: StaffProps) {
  const notice = (useLocation().state as { notice?: unknown } | null)?.notice;
  const noticeLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (typeof notice === 'string') noticeLine.current?.focus();
  }, [notice]);

  return (
    <>
      <h1>Staff</h1>
      {typeof notice === 'string' ? (
        <p role="status" ref={noticeLine} tabIndex={-1}>
          {notice}
        </p>
      ) : null}
      <p>
        {me.role === 'owner'
          ? 'As an owner you invite people, change their roles and remove them.'
          : 'As a manager you see who works here. Only owners invite people, change roles or remove someone.'}
      </p>
      <WhenLoaded data={staff} error={error} progress="Loading the staff…">
        {(staff) => (
          <ScrollingTable captionId="staff-caption" caption={<>People at this merchant ({staff.length})</>}>
            <ColumnHeadings columns={['Name', 'Email', 'Role', 'State']} />
            <tbody>
              {staff.map((member) => (
                <tr key={member.id}>
                  <th scope="row">
                    <Link to={`/staff/${member.id}`}>{member.name}</Link>
                    {member.id === me.id ? ' (you)' : ''}
                  </th>
                  <td>{member.email}</td>
                  <td>{ROLE_NAMES[member.role]}</td>
                  <td>{stateName(member)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        )}
      </WhenLoaded>
      {me.role === 'owner' ? <Invite client={client} merchantId={merchantId} onInvited={reload} /> : null}
      <MyManagerCode client={client} merchantId={merchantId} />
    </>
  );
}

/** An owner invites someone: the API creates them without a password and mails the link that sets it. */
function Invite({ client, merchantId, onInvited }: { client: LevelUpClient; merchantId: number; onInvited: () => void }) {
  const { busy, error, run } = useWrite();
  const [invited, setInvited] = useState<string>();

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const name = textOf(fields, 'name').trim();
    const email = textOf(fields, 'email').trim();
    const role = fields.get('role');
    if (!isRole(role)) return;
    setInvited(undefined);
    await run(async () => {
      const answer = await withIdempotencyKey(
        (key) =>
          client.POST('/v15/merchants/{merchant_id}/staff', {
            params: { path: { merchant_id: String(merchantId) }, header: { 'Idempotency-Key': key } },
            body: { staff: { name, email, role } },
          }),
        { attempts: WRITE_ATTEMPTS },
      );
      const member = answered(answer).staff;
      form.reset();
      setInvited(
        `${member.name} is invited as ${ROLE_NAMES[member.role].toLowerCase()}. The mail to ${member.email} has a link to set a password (valid 3 days).`,
      );
      onInvited();
    });
  }

  return (
    <section aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite someone</h2>
      <form className="stacked" onSubmit={(event) => void invite(event)} aria-busy={busy}>
        <label htmlFor="invite-name">Name</label>
        <input id="invite-name" name="name" required maxLength={100} autoComplete="off" />
        <label htmlFor="invite-email">Email</label>
        <input id="invite-email" name="email" type="email" required maxLength={254} autoComplete="off" />
        <SelectField label="Role" name="role" defaultValue="staff" options={ROLES} />
        <button type="submit" disabled={busy}>
          Send the invite
        </button>
      </form>
      {busy ? <Progress label="Sending the invite…" /> : null}
      <ErrorMessage error={error} />
      {invited ? <ResultLine text={invited} /> : null}
    </section>
  );
}

/** The signed-in owner's or manager's own code: typed hidden, twice, and never shown or read back (no route answers it). */
function MyManagerCode({ client, merchantId }: { client: LevelUpClient; merchantId: number }) {
  const { busy, error, setError, run } = useWrite();
  const [mismatch, setMismatch] = useState(false);
  const [saved, setSaved] = useState(false);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new FormData(form);
    const code = textOf(fields, 'code');
    setSaved(false);
    // A mismatch is its own refusal: the last one from the API goes.
    setError(undefined);
    setMismatch(code !== textOf(fields, 'again'));
    if (code !== textOf(fields, 'again')) return;
    await run(async () => {
      succeeded(
        await withIdempotencyKey(
          (key) =>
            client.PUT('/v15/merchants/{merchant_id}/staff/me/manager_code', {
              params: { path: { merchant_id: String(merchantId) }, header: { 'Idempotency-Key': key } },
              body: { manager_code: { code } },
            }),
          { attempts: WRITE_ATTEMPTS },
        ),
      );
      // The code leaves the page as soon as it is set.
      form.reset();
      setSaved(true);
    });
  }

  return (
    <section aria-labelledby="code-heading">
      <h2 id="code-heading">My manager code</h2>
      <p>Your own code approves refunds as you, here and at the register. Nobody can read it back, not even you: setting a new one replaces the old one.</p>
      <form className="stacked" onSubmit={(event) => void save(event)} aria-busy={busy}>
        <label htmlFor="code-new">New manager code (4 to 8 digits)</label>
        <input id="code-new" name="code" type="password" inputMode="numeric" pattern="[0-9]{4,8}" minLength={4} maxLength={8} required autoComplete="off" />
        <label htmlFor="code-again">The same code again</label>
        <input id="code-again" name="again" type="password" inputMode="numeric" pattern="[0-9]{4,8}" minLength={4} maxLength={8} required autoComplete="off" />
        <button type="submit" disabled={busy}>
          Set my manager code
        </button>
      </form>
      {busy ? <Progress label="Setting your code…" /> : null}
      {mismatch ? (
        <div className="error" role="alert">
          <p>The two codes differ. Type the same code twice.</p>
        </div>
      ) : null}
      <ErrorMessage error={error} />
      {saved ? <ResultLine text="Your manager code is set. Use it to approve refunds." /> : null}
    </section>
  );
}

type Change = { kind: 'role'; role: Role } | { kind: 'remove' };

/** One person: their details; for owners, a role change and the removal, each confirmed, the last owner protected. */
function StaffMemberPage({ client, merchantId, me, staff, error, reload }: StaffProps) {
  const { staffId = '' } = useParams();
  const navigate = useNavigate();
  const member = staff?.find((each) => String(each.id) === staffId);
  const [role, setRole] = useState<Role>();
  const [confirming, setConfirming] = useState<Change>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ConsoleError>();
  const [changed, setChanged] = useState<string>();

  const back = (
    <p>
      <Link to="/staff">Back to the staff</Link>
    </p>
  );
  if (error)
    return (
      <>
        {back}
        <h1>Staff member</h1>
        <ErrorMessage error={error} />
      </>
    );
  if (!staff)
    return (
      <>
        {back}
        <h1>Staff member</h1>
        <Progress label="Loading the staff…" />
      </>
    );
  if (!member)
    return (
      <>
        {back}
        <h1>Staff member</h1>
        <p>This person is not on the staff. They may have been removed.</p>
      </>
    );

  const owners = staff.filter((each) => each.role === 'owner').length;
  const lastOwner = member.role === 'owner' && owners === 1;
  const chosenRole = role ?? member.role;
  const isMe = member.id === me.id;

  async function apply(change: Change) {
    if (!member) return;
    setBusy(true);
    setFailure(undefined);
    setChanged(undefined);
    const path = { merchant_id: String(merchantId), staff_id: String(member.id) };
    try {
      if (change.kind === 'role') {
        const answer = await withIdempotencyKey(
          (key) =>
            client.PUT('/v15/merchants/{merchant_id}/staff/{staff_id}', {
              params: { path, header: { 'Idempotency-Key': key } },
              body: { staff: { role: change.role } },
            }),
          { attempts: WRITE_ATTEMPTS },
        );
        const updated = answered(answer).staff;
        setChanged(
          `${updated.name} is now ${ROLE_NAMES[updated.role].toLowerCase()}. ${isMe ? 'You are signed out everywhere: sign in again to use your new role.' : 'They sign in again to use it.'}`,
        );
        setRole(undefined);
        reload();
      } else {
        succeeded(
          await withIdempotencyKey(
            (key) => client.DELETE('/v15/merchants/{merchant_id}/staff/{staff_id}', { params: { path, header: { 'Idempotency-Key': key } } }),
            {
              attempts: WRITE_ATTEMPTS,
            },
          ),
        );
        reload();
        void navigate('/staff', { state: { notice: `${member.name} is removed from the staff and can no longer sign in.` } });
      }
    } catch (caught) {
      setFailure(asConsoleError(caught));
    } finally {
      setBusy(false);
      setConfirming(undefined);
    }
  }

  return (
    <>
      {back}
      <h1>{member.name}</h1>
      <dl className="facts">
        <dt>Email</dt>
        <dd>{member.email}</dd>
        <dt>Role</dt>
        <dd>{ROLE_NAMES[member.role]}</dd>
        <dt>State</dt>
        <dd>{member.status === 'invited' ? 'Invited (has not set a password yet)' : 'Active'}</dd>
        <dt>On the staff since</dt>
        <dd>{formatTime(member.created_at)}</dd>
      </dl>
      {changed ? <ResultLine text={changed} /> : null}
      <ErrorMessage error={failure} />
      {me.role !== 'owner' ? (
        <p>Only owners change roles or remove someone.</p>
      ) : busy ? (
        <Progress label="Saving the change…" />
      ) : confirming ? (
        <ConfirmStep
          question={
            confirming.kind === 'role'
              ? `Make ${member.name} ${ROLE_NAMES[confirming.role].toLowerCase()}? ${isMe ? 'You' : 'They'} will be signed out and sign in again with the new role.`
              : `Remove ${member.name} from the staff? ${isMe ? 'You' : 'They'} can no longer sign in. It cannot be undone.`
          }
          confirmLabel={confirming.kind === 'role' ? `Yes, make ${ROLE_NAMES[confirming.role].toLowerCase()}` : `Yes, remove ${member.name}`}
          onConfirm={() => void apply(confirming)}
          onCancel={() => setConfirming(undefined)}
        />
      ) : lastOwner ? (
        <p>
          {isMe ? 'You are' : `${member.name} is`} the only owner. Make someone else an owner first; then {isMe ? 'your' : 'their'} role can change, or{' '}
          {isMe ? 'you' : 'they'} can be removed.
        </p>
      ) : (
        <>
          <section aria-labelledby="role-heading">
            <h2 id="role-heading">Role</h2>
            <form
              className="filters"
              onSubmit={(event) => {
                event.preventDefault();
                if (chosenRole !== member.role) setConfirming({ kind: 'role', role: chosenRole });
              }}
            >
              <SelectField label="New role" name="role" value={chosenRole} options={ROLES} onChange={(value) => setRole(isRole(value) ? value : undefined)} />
              <button type="submit" disabled={chosenRole === member.role}>
                Change the role
              </button>
            </form>
          </section>
          <section aria-labelledby="remove-heading">
            <h2 id="remove-heading">Remove</h2>
            <p>Removing someone signs them out at once; their email and password no longer sign in.</p>
            <button type="button" className="secondary" onClick={() => setConfirming({ kind: 'remove' })}>
              Remove {member.name}
            </button>
          </section>
        </>
      )}
    </>
  );
}
