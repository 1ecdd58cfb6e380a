/**
 * The one request the console sends outside the typed client: a location's picture, posted straight to the images
 * bucket through the presigned POST the API answered (docs/merchant-api.md, "Locations: images"). It carries no
 * token (the form's signed policy is the permission); the CSP allows exactly the bucket's origin
 * (shared/http/console-headers.ts) and the bucket's CORS rule allows the console's origin.
 */

/** The picture types the API accepts; anything else is refused before asking for an upload. */
export const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type PictureType = (typeof PICTURE_TYPES)[number];
export const isPictureType = (type: string): type is PictureType => (PICTURE_TYPES as readonly string[]).includes(type);

/** Why the bucket did not take the file, in words (S3 says why in XML the merchant cannot act on). */
export class UploadRefused extends Error {
  constructor(readonly status: number) {
    super(
      status === 0
        ? 'The picture could not be sent. Check the network, then try again.'
        : status === 403
          ? 'The upload was refused: it may have expired. Please choose the picture again.'
          : status === 400
            ? 'The picture was refused: it may be too large (at most 20 MB). Please choose another.'
            : 'The picture could not be sent. Please try again.',
    );
    this.name = 'UploadRefused';
  }
}

/**
 * POSTs the form (every field the API signed, then the file as `file`) and reports the share sent (0 to 1).
 * XMLHttpRequest, not fetch: only it reports an upload's progress.
 */
export function postPicture(upload: { url: string; fields: Record<string, string> }, file: File, onProgress: (share: number) => void): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', file);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', upload.url);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) resolve();
      else reject(new UploadRefused(request.status));
    });
    request.addEventListener('error', () => reject(new UploadRefused(0)));
    request.addEventListener('abort', () => reject(new UploadRefused(0)));
    request.send(form);
  });
}

/** Waits `ms`, or less when the page moved on (`signal`). */
export const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
