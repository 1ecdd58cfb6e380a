import { useEffect, useRef, useState } from 'react';
import type { ApiErrors } from '../../clients/typescript/index.ts';
import { ErrorMessage, Progress } from './ErrorMessage.tsx';
import { answered, asConsoleError, ConsoleError } from './session.ts';

/**
 * CSV downloads (the Exports and Audit log pages, docs/console.md "Exports"). A download needs the Authorization
 * header, so the file is fetched through the typed client, then handed to the browser's downloads as an object URL
 * through `<a download>`: no inline script, and a download anchor's `blob:` address is not a fetch, so the CSP's
 * connect-src does not govern it.
 */

/** A file built in this tab: its name, its object URL (revoked when the next file replaces it), its size. */
export interface SavedFile {
  name: string;
  url: string;
  bytes: number;
}

/** The file name the API's Content-Disposition gives, else `fallback` (only plain names: it becomes a download's name). */
export function fileNameOf(response: Response, fallback: string): string {
  const named = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1];
  return named && /^[\w.-]{1,120}$/.test(named) ? named : fallback;
}

/**
 * An answer's body (a CSV's text or blob, a page of entries), or the failure in words. A range the API refuses (422)
 * says which end and why, in a sentence; everything else is the console's usual wording (session.ts).
 */
export function rangeAnswer<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  const { status, headers } = answer.response;
  if (status !== 422) return answered(answer);
  const detail = (answer.error as ApiErrors | undefined)?.[0]?.error;
  const requestId = headers.get('X-Request-Id') ?? undefined;
  if (detail?.code === 'export_too_large') {
    return refused('This range holds more rows than one file may (10,000). Choose a shorter range: several files cover a longer one.', requestId);
  }
  const which = detail?.property === 'from' ? 'the start day' : detail?.property === 'to' ? 'the end day' : 'the range';
  // The API's message starts with the field's name ("To must be ..."): the sentence names the day instead.
  const reason = detail?.message.replace(/^(from|to) /i, '');
  return refused(
    `This range was refused${reason ? `: ${which} ${reason}` : ''}. Choose a start and an end day at most 92 days apart, the end not before the start.`,
    requestId,
  );
}

function refused(message: string, requestId: string | undefined): never {
  throw new ConsoleError(message, 422, requestId);
}

/** Hands `blob` to the browser's downloads under `name`, and keeps its object URL for a "save again" link. */
function saveFile(blob: Blob, name: string): SavedFile {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  // Attached for the click: every browser follows a download anchor in the document.
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  return { name, url, bytes: blob.size };
}

type DownloadState = { step: 'idle' } | { step: 'building'; label: string } | { step: 'done'; file: SavedFile } | { step: 'failed'; error: ConsoleError };

/** What `build` produces: the file's content and its name. */
export interface BuiltFile {
  blob: Blob;
  name: string;
}

/** One download at a time: building (with a progress line `build` may update), then the saved file or the error. */
export function useDownload() {
  const [state, setState] = useState<DownloadState>({ step: 'idle' });

  // The previous file's object URL is released when the next download starts or the page closes.
  useEffect(() => {
    if (state.step !== 'done') return;
    const { url } = state.file;
    return () => URL.revokeObjectURL(url);
  }, [state]);

  async function download(label: string, build: (progress: (label: string) => void) => Promise<BuiltFile>): Promise<void> {
    setState({ step: 'building', label });
    try {
      const { blob, name } = await build((next) => setState({ step: 'building', label: next }));
      setState({ step: 'done', file: saveFile(blob, name) });
    } catch (failure) {
      setState({ step: 'failed', error: asConsoleError(failure) });
    }
  }

  /** A refusal the page found itself, before asking the API. */
  function fail(message: string): void {
    setState({ step: 'failed', error: new ConsoleError(message, 0, undefined) });
  }

  return { state, busy: state.step === 'building', download, fail };
}

const size = (bytes: number): string => (bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KB`);

/** The download's progress, its file (a link to save it again) or its error; focus moves to the outcome. */
export function DownloadStatus({ state }: { state: DownloadState }) {
  const outcome = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.step === 'done' || state.step === 'failed') outcome.current?.focus();
  }, [state]);

  if (state.step === 'idle') return null;
  if (state.step === 'building') return <Progress label={state.label} />;
  return (
    <div className="download-outcome" ref={outcome} tabIndex={-1}>
      {state.step === 'failed' ? (
        <ErrorMessage error={state.error} />
      ) : (
        <p role="status">
          Downloaded {state.file.name} ({size(state.file.bytes)}). If your browser did not save it,{' '}
          <a href={state.file.url} download={state.file.name}>
            save {state.file.name} again
          </a>
          .
        </p>
      )}
    </div>
  );
}
