import { useState } from 'preact/hooks';
import { apiBase } from '../session.js';
import { useLoad } from '../use-load.js';
import { ListTable } from '../ui/list-table.js';
import { ProblemNotice } from '../ui/problem.js';
import { Time } from '../ui/format.js';

interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  sent_at: string;
}

/** The local runtime's mailbox (GET /local/mail): not in the API, and absent outside the local runtime. */
async function loadMailbox(to: string): Promise<Mail[] | 'not_local'> {
  const response = await fetch(`${apiBase}/local/mail${to ? `?to=${encodeURIComponent(to)}` : ''}`);
  if (response.status === 404) return 'not_local';
  if (!response.ok) throw new Error(`The mailbox answered ${response.status}.`);
  return ((await response.json()) as { data: { items: Mail[] } }).data.items;
}

/** A mail's text with its links clickable (the text body carries each link whole). */
function TextWithLinks({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return <pre class="mail-text">{parts.map((part, i) => (i % 2 === 1 ? <a href={part}>{part}</a> : part))}</pre>;
}

/** `/console/mail`: every mail the local runtime sent, newest first, to read without a mail server. */
export function MailPage() {
  const [to, setTo] = useState(() => new URLSearchParams(location.search).get('to') ?? '');
  const [openId, setOpenId] = useState<string>();
  const { data, problem, reload } = useLoad(() => loadMailbox(to), [to]);

  if (data === 'not_local')
    return (
      <main class="narrow" id="main">
        <h1>Mail</h1>
        <p>The mailbox exists only in the local runtime (npm start); deployed, mail goes out through Amazon SES.</p>
      </main>
    );
  const open = Array.isArray(data) ? data.find((m) => m.id === openId) : undefined;
  return (
    <main id="main">
      <h1>Mail</h1>
      <p>Every mail the local runtime sent, newest first: the files are under DATA_DIR/mail.</p>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          setTo(new FormData(event.currentTarget).get('to') as string);
        }}
      >
        <label>
          To
          <input name="to" type="email" value={to} placeholder="any address" />
        </label>
        <button type="submit">Show</button>{' '}
        <button type="button" onClick={() => void reload()}>
          Refresh
        </button>
      </form>
      <ProblemNotice problem={problem} title="Could not read the mailbox." />
      <ListTable
        items={Array.isArray(data) ? data : undefined}
        columns={[
          {
            label: 'Subject',
            cell: (mail) => (
              <button type="button" class="link" onClick={() => setOpenId(mail.id)}>
                {mail.subject}
              </button>
            ),
          },
          { label: 'To', cell: (mail) => mail.to },
          { label: 'Sent', cell: (mail) => <Time at={mail.sent_at} /> },
        ]}
        rowKey={(mail) => mail.id}
        rowAttributes={(mail) => ({ 'aria-current': mail.id === openId ? 'true' : undefined })}
        empty={<p>No mail yet.</p>}
      />
      {open ? (
        <article aria-label="Open mail" class="mail">
          <h2>{open.subject}</h2>
          <p>
            To {open.to} · <Time at={open.sent_at} />
          </p>
          <TextWithLinks text={open.text} />
        </article>
      ) : null}
    </main>
  );
}
