// Parts of the qrcode package, imported without its entry point, which loads every renderer (PNG with pngjs,
// SVG, canvas, terminal) into each bundle that imports it: the encoder alone for character art
// (shared/domain/orders/checks.ts), the encoder and the PNG renderer for PNG codes (functions/qr-codes-show.ts).
declare module 'qrcode/lib/core/qrcode.js' {
  export { create } from 'qrcode';
}

declare module 'qrcode/lib/renderer/png.js' {
  import type { QRCode, QRCodeToBufferOptions } from 'qrcode';

  export function renderToBuffer(qrData: QRCode, options: QRCodeToBufferOptions, callback: (error: Error | null, png: Buffer) => void): void;
}
