import { useState } from 'preact/hooks';
import type { ApiProblem } from '@social-network/sdk';
import { exportsApi, type DataExport } from '../../exports-api.js';
import { StatusBadge, Time } from '../../ui/format.js';
import { ProblemNotice } from '../../ui/problem.js';
import { asProblem, useInterval, useLoad } from '../../use-load.js';

/** While an export is being written, its status is read again this often. */
const POLL_MS = 2000;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;

function ExportStatus({ latest }: { latest: DataExport }) {
  if (latest.status === 'pending')
    return <p role="status">Your archive is being written. A mail tells you when it is ready.</p>;
  if (latest.status === 'failed')
    return <p role="status">The export failed: {latest.failure_reason ?? 'no reason given'}. Ask for a new one.</p>;
  if (!latest.download_url)
    return <p role="status">Your last archive can no longer be downloaded (7 days have passed). Ask for a new one.</p>;
  return (
    <p role="status">
      <a href={latest.download_url} download="export.zip">
        Download your archive
      </a>{' '}
      ({megabytes(latest.size_bytes ?? 0)}), until <Time at={latest.expires_at} />.
    </p>
  );
}

/** The export of the account's data: ask for an archive, follow it, download it. */
export function ExportSection() {
  const loaded = useLoad(() => exportsApi.list(), []);
  const [problem, setProblem] = useState<ApiProblem>();
  const [asking, setAsking] = useState(false);
  const latest = loaded.data?.items[0];
  const pending = latest?.status === 'pending';
  useInterval(() => void loaded.reload(), POLL_MS, pending);

  const request = async () => {
    setAsking(true);
    setProblem(undefined);
    try {
      await exportsApi.request();
      await loaded.reload();
    } catch (error) {
      setProblem(asProblem(error));
    } finally {
      setAsking(false);
    }
  };

  return (
    <section aria-labelledby="export-heading">
      <h2 id="export-heading">Export your data</h2>
      <p>
        An archive (ZIP) of your account and of every profile of the workspaces you own: posts with their earlier
        versions, comments, follows, blocks, mutes, messages, notifications, media, webhook endpoints and API keys. No
        password or key is in it. Its follows, blocks and mutes can be imported into a profile again.
      </p>
      <ProblemNotice problem={loaded.problem ?? problem} title="Could not ask for or load your exports." />
      {latest ? (
        <div>
          <StatusBadge status={latest.status} /> Asked for <Time at={latest.created_at} />
          <ExportStatus latest={latest} />
        </div>
      ) : null}
      <button
        type="button"
        onClick={() => void request()}
        disabled={asking || pending || (loaded.loading && !loaded.data)}
      >
        {latest ? 'Ask for a new export' : 'Export my data'}
      </button>
    </section>
  );
}
