import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { moderation, type ModerationAction, type ReportedSubject } from '../moderation-api.js';
import { asProblem, useLoad } from '../use-load.js';
import { Time } from '../ui/format.js';
import { ListTable } from '../ui/list-table.js';
import { Notice, ProblemNotice } from '../ui/problem.js';

const ACTIONS: { action: ModerationAction; label: string; applies: (s: ReportedSubject) => boolean }[] = [
  { action: 'dismiss', label: 'Dismiss', applies: () => true },
  {
    action: 'remove_content',
    label: 'Remove content',
    applies: (s) => s.subject_type === 'post' || s.subject_type === 'comment',
  },
  { action: 'suspend_profile', label: 'Suspend profile', applies: () => true },
];

const keyOf = (s: ReportedSubject) => `${s.subject_type}/${s.subject_id}`;

/** The moderation queue: reported subjects, most reported first; one opened with its reports and the actions. */
export function ModerationPage() {
  const [status, setStatus] = useState<'open' | 'resolved'>('open');
  const queue = useLoad(() => moderation.subjects(status), [status]);
  const [selected, setSelected] = useState<string>();
  const [done, setDone] = useState<string>();
  const items = queue.data?.items ?? [];
  const subject = items.find((s) => keyOf(s) === selected);
  return (
    <main id="main">
      <h1>Moderation</h1>
      <div class="actions" role="group" aria-label="Queue">
        {(['open', 'resolved'] as const).map((s) => (
          <button
            key={s}
            type="button"
            class={s === status ? 'button primary' : 'button'}
            aria-pressed={s === status}
            onClick={() => (setStatus(s), setSelected(undefined))}
          >
            {s === 'open' ? 'Open' : 'Resolved'}
          </button>
        ))}
      </div>
      {done ? <Notice>{done}</Notice> : null}
      <ProblemNotice problem={queue.problem} title="Could not load the queue." />
      <ListTable
        items={queue.data?.items}
        columns={[
          {
            label: 'Subject',
            cell: (s) => (
              <button type="button" class="link" onClick={() => (setSelected(keyOf(s)), setDone(undefined))}>
                {s.subject_type} {s.subject_id.slice(0, 8)}
              </button>
            ),
          },
          { label: 'Reports', cell: (s) => (status === 'open' ? s.open_reports : s.resolution) },
          { label: 'Reasons', cell: reasonsText },
          { label: 'First reported', cell: (s) => <Time at={s.first_reported_at} /> },
        ]}
        rowKey={keyOf}
        responsive
        empty={<p>No {status} reports.</p>}
      />
      {subject ? (
        <SubjectPanel
          key={keyOf(subject)}
          subject={subject}
          onResolved={(message) => {
            setSelected(undefined);
            setDone(message);
            void queue.reload();
          }}
        />
      ) : null}
    </main>
  );
}

const reasonsText = (s: ReportedSubject) =>
  Object.entries(s.reasons)
    .map(([reason, n]) => `${reason} × ${n}`)
    .join(', ');

function SubjectPanel({ subject, onResolved }: { subject: ReportedSubject; onResolved: (message: string) => void }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem>();
  const act = async (action: ModerationAction, label: string) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await moderation.resolve(subject, action, note.trim() || undefined);
      onResolved(`${label}: the ${subject.subject_type}'s reports are resolved.`);
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="subject-title" class="panel">
      <h2 id="subject-title">
        Reported {subject.subject_type} <span class="mono">{subject.subject_id}</span>
      </h2>
      <p>
        {subject.status === 'open'
          ? `${subject.open_reports} open report${subject.open_reports === 1 ? '' : 's'}`
          : `Resolved: ${subject.resolution ?? ''}`}{' '}
        · {reasonsText(subject)}
      </p>
      <h3>As it read when first reported</h3>
      <Snapshot subject={subject} />
      <ProblemNotice problem={problem} title="Could not resolve the reports." />
      {subject.status === 'open' ? (
        <form onSubmit={(e) => e.preventDefault()}>
          <label>
            Note (optional)
            <input value={note} maxLength={1000} onInput={(e) => setNote(e.currentTarget.value)} />
          </label>
          <div class="actions">
            {ACTIONS.filter((a) => a.applies(subject)).map((a) => (
              <button
                key={a.action}
                type="button"
                class={a.action === 'dismiss' ? 'button' : 'button danger'}
                disabled={busy}
                onClick={() => void act(a.action, a.label)}
              >
                {a.label}
              </button>
            ))}
          </div>
        </form>
      ) : null}
    </section>
  );
}

/** What a snapshot's parts carry that the page shows (its shape depends on the subject type). */
interface Shown {
  body?: string;
  name?: string;
  username?: string;
  bio?: string | null;
}

/** The text a moderator judges: the body and its author, or the profile's names. */
function Snapshot({ subject }: { subject: ReportedSubject }) {
  const snapshot = subject.snapshot as { post?: Shown; comment?: Shown; profile?: Shown } & Shown;
  const content = snapshot.post ?? snapshot.comment ?? (subject.subject_type === 'message' ? snapshot : undefined);
  const profile = snapshot.profile ?? (subject.subject_type === 'profile' ? snapshot : undefined);
  return (
    <blockquote class="snapshot">
      {profile ? (
        <p>
          <strong>{profile.name}</strong> <span class="mono">@{profile.username}</span>
        </p>
      ) : null}
      {content ? <p class="break">{content.body}</p> : null}
      {subject.subject_type === 'profile' && profile?.bio ? <p>{profile.bio}</p> : null}
    </blockquote>
  );
}
