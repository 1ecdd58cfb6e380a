import { useEffect, useRef, useState, type FormEvent } from 'react';
import { withIdempotencyKey, type LevelUpClient } from '../../../clients/typescript/index.ts';
import { ErrorMessage, Progress } from '../ErrorMessage.tsx';
import { nameOf, type LocationSettings } from '../locations-hours.ts';
import { isPictureType, pause, postPicture, UploadRefused } from '../locations-upload.ts';
import { answered, asConsoleError, ConsoleError } from '../session.ts';

/** The API's largest upload (docs/merchant-api.md, "Locations: images"): refused here before anything is sent. */
const MAX_PICTURE_BYTES = 20 * 1024 * 1024;
/** Processing takes a second or two; the page asks every second, for up to two minutes, then says so. */
const POLL_INTERVAL_MS = 1000;
const POLL_ATTEMPTS = 120;
/** The size the page shows (one the API documents for locations: 320 x 212, at twice the density for sharp screens). */
const PREVIEW = { width: 320, height: 212, density: 2 };

type Step =
  | { name: 'idle' }
  | { name: 'asking' }
  | { name: 'sending'; percent: number }
  | { name: 'processing' }
  | { name: 'ready'; uploadId: string }
  | { name: 'failed'; message: string };

/**
 * A location's picture by presigned upload: ask the API for an upload, post the file straight to the images
 * bucket (progress shown), then ask the API until the processing says ready (the new picture is shown) or failed
 * (the reason in words). The file never passes through the API.
 */
export function LocationPicture({ client, merchantId, location }: { client: LevelUpClient; merchantId: number; location: LocationSettings }) {
  const [step, setStep] = useState<Step>({ name: 'idle' });
  const [error, setError] = useState<ConsoleError>();
  const result = useRef<HTMLParagraphElement>(null);
  const leaving = useRef<AbortController>(new AbortController());
  const path = { merchant_id: String(merchantId), location_id: String(location.id) };

  useEffect(() => {
    const controller = new AbortController();
    leaving.current = controller;
    return () => controller.abort();
  }, []);
  // The outcome takes focus, so a keyboard or screen-reader user hears it.
  useEffect(() => {
    if (step.name === 'ready' || step.name === 'failed') result.current?.focus();
  }, [step.name]);

  async function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    const file = new FormData(event.currentTarget).get('picture');
    if (!(file instanceof File) || file.size === 0) {
      setStep({ name: 'failed', message: 'Choose a picture first.' });
      return;
    }
    const contentType = file.type;
    if (!isPictureType(contentType)) {
      setStep({ name: 'failed', message: 'This file is not a JPEG, PNG or WebP picture. Phones can share a photo as JPEG.' });
      return;
    }
    if (file.size > MAX_PICTURE_BYTES) {
      setStep({ name: 'failed', message: 'This picture is larger than 20 MB. Please choose a smaller one.' });
      return;
    }
    const signal = leaving.current.signal;
    try {
      setStep({ name: 'asking' });
      const created = answered(
        await withIdempotencyKey((key) =>
          client.POST('/v15/merchants/{merchant_id}/locations/{location_id}/image_uploads', {
            params: { path, header: { 'Idempotency-Key': key } },
            body: { image_upload: { content_type: contentType } },
          }),
        ),
      ).image_upload;
      setStep({ name: 'sending', percent: 0 });
      await postPicture(created.upload, file, (share) => {
        if (!signal.aborted) setStep({ name: 'sending', percent: Math.round(share * 100) });
      });
      setStep({ name: 'processing' });
      for (let attempt = 0; attempt < POLL_ATTEMPTS && !signal.aborted; attempt++) {
        const shown = answered(
          await client.GET('/v15/merchants/{merchant_id}/locations/{location_id}/image_uploads/{upload_id}', {
            params: { path: { ...path, upload_id: created.id } },
          }),
        ).image_upload;
        if (shown.state === 'ready') return setStep({ name: 'ready', uploadId: shown.id });
        if (shown.state === 'failed') return setStep({ name: 'failed', message: shown.failure?.message ?? 'The picture could not be used.' });
        await pause(POLL_INTERVAL_MS, signal);
      }
      if (!signal.aborted) setStep({ name: 'failed', message: 'The picture is taking longer than usual. Reload this page in a minute to see it.' });
    } catch (failure) {
      if (signal.aborted) return;
      if (failure instanceof UploadRefused) setStep({ name: 'failed', message: failure.message });
      else {
        setError(asConsoleError(failure));
        setStep({ name: 'idle' });
      }
    }
  }

  const busy = step.name === 'asking' || step.name === 'sending' || step.name === 'processing';
  return (
    <>
      <p className="hint">Apps show this picture for {nameOf(location)}. A new one replaces the last; it is resized to every size the apps ask for.</p>
      <form className="picture-form" aria-label="Upload a picture" onSubmit={(event) => void upload(event)}>
        <label>
          Picture (JPEG, PNG or WebP, up to 20 MB)
          <input type="file" name="picture" accept="image/jpeg,image/png,image/webp" disabled={busy} />
        </label>
        <button type="submit" disabled={busy}>
          Upload the picture
        </button>
      </form>
      <ErrorMessage error={error} />
      {step.name === 'asking' ? <Progress label="Preparing the upload…" /> : null}
      {step.name === 'sending' ? (
        <div className="upload-progress">
          <Progress label={`Sending the picture… ${step.percent}%`} />
          <progress max={100} value={step.percent} aria-label="Sending the picture" />
        </div>
      ) : null}
      {step.name === 'processing' ? <Progress label="Sent. Preparing the picture for the apps…" /> : null}
      {step.name === 'failed' ? (
        <div className="error" role="alert">
          <p ref={result} tabIndex={-1}>
            The picture was not used. {step.message}
          </p>
        </div>
      ) : null}
      {step.name === 'ready' ? (
        <figure className="location-picture">
          {/* The app's image route redirects to the new version; the upload id keeps the browser from showing a cached one. */}
          <img
            src={`/v15/locations/${location.id}/image?width=${PREVIEW.width}&height=${PREVIEW.height}&density=${PREVIEW.density}&upload=${step.uploadId}`}
            width={PREVIEW.width}
            height={PREVIEW.height}
            alt={`The new picture of ${nameOf(location)}`}
          />
          <figcaption>
            <p role="status" ref={result} tabIndex={-1}>
              The picture is ready. Apps show it now.
            </p>
          </figcaption>
        </figure>
      ) : null}
    </>
  );
}
